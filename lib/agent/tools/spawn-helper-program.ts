// The spawn helper's own program, run as `node -e HELPER_PROGRAM` with an IPC channel. It is kept
// as plain CommonJS text (not a module of this project) so it runs the same from a Next build, a
// test runner or a plain Node script, with no file to locate at run time.
//
// Protocol (IPC, advanced serialization so output chunks travel as Buffers):
//   parent -> helper  { t: 'spawn', id, command, cwd, env, maxBytes }   run /bin/bash -c command
//                     { t: 'release', id }                              stop reading its output
//                     { t: 'prepare', cwd, env }                        have a spare bash ready
//   helper -> parent  { t: 'ready' }
//                     { t: 'spawned', id, pid, warm }  bash started, leading a new process group
//                                                    (warm: a spare bash took the command)
//                     { t: 'error', id, message }    bash could not be started (nothing ran)
//                     { t: 'out', id, data }         output, only the first maxBytes (+1) bytes
//                     { t: 'exit', id, code, signal } bash exited; its group was killed
//                     { t: 'close', id, total }      pipes closed; total = bytes of output seen
// When the channel closes (the server died or let go), every group the helper started is killed
// and the helper exits: nothing it started outlives the server.
//
// A spare bash: starting /bin/bash (exec, dynamic linking, start-up) is most of the time from a
// request to the command running (1.5-3 ms of about 4), so one bash is started ahead of time, in /
// with the environment of the last command, waiting on fd 3 for a directory and a command (each
// NUL-terminated). It changes to the directory (`cd -P`, as a start there would have it) and runs
// the command with `eval`, in the same state as `bash -c` (same $0, options, variables, process
// group, closed stdin, exit status; a syntax error says "eval" instead of "-c"). A spare is
// used once, for a command of at most SPARE_MAX_BYTES without NUL (bash reads fd 3 a byte at a
// time) in an existing directory; any other command, or one with another environment, starts a
// fresh bash as before. If the helper dies before handing a spare its command, the spare reads
// EOF and exits without running anything.
export const HELPER_PROGRAM = String.raw`
'use strict';
const { spawn } = require('node:child_process');
const { statSync } = require('node:fs');
const jobs = new Map();
const send = (m) => { if (process.connected) process.send(m); };
const killGroup = (pid) => { try { process.kill(-pid, 'SIGKILL'); } catch {} };
// What it leaves as bash -c would have it: OLDPWD exported and unset, SECONDS from 0, $_ the shell,
// BASH_EXECUTION_STRING the command. (declare -p differs only in PIPESTATUS being set.)
const SPARE = 'IFS= read -r -d "" -u 3 __gatehouse_cwd && IFS= read -r -d "" -u 3 __gatehouse_command || exit 97; exec 3<&-; ' +
  'cd -P -- "$__gatehouse_cwd" || exit 1; unset OLDPWD __gatehouse_cwd; declare -x OLDPWD; SECONDS=0; ' +
  'BASH_EXECUTION_STRING=$__gatehouse_command; eval "unset __gatehouse_command; : /bin/bash; $__gatehouse_command"';
const SPARE_MAX_BYTES = 4096;
let spare;
const keyOf = (m) => JSON.stringify(m.env);
const isDirectory = (p) => { try { return statSync(p).isDirectory(); } catch { return false; } };
function dropSpare() {
  if (spare && spare.child.pid !== undefined) killGroup(spare.child.pid);
  spare = undefined;
}
function prepare(m) {
  const key = keyOf(m);
  if (spare && spare.key === key && !spare.dead) return;
  dropSpare();
  let child;
  try {
    child = spawn('/bin/bash', ['-c', SPARE], { cwd: '/', env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  } catch {
    return;
  }
  const s = { key, child, dead: child.pid === undefined };
  const gone = () => { s.dead = true; if (spare === s) spare = undefined; };
  child.on('error', gone);
  child.on('exit', gone);
  child.stdio[3].on('error', () => {});
  spare = s;
}
/** The spare bash for this command, given its command; undefined when none fits. */
function takeSpare(m) {
  const s = spare;
  if (!s || s.dead || s.key !== keyOf(m) || s.child.exitCode !== null || s.child.signalCode !== null) return undefined;
  if (m.command.includes('\0') || m.cwd.includes('\0') || Buffer.byteLength(m.command) > SPARE_MAX_BYTES) return undefined;
  // A missing directory is reported as a fresh spawn reports it (ENOENT, nothing run).
  if (!isDirectory(m.cwd)) return undefined;
  spare = undefined;
  s.child.stdio[3].end(m.cwd + '\0' + m.command + '\0');
  return s.child;
}
function start(m) {
  let child = takeSpare(m);
  const warm = child !== undefined;
  try {
    child ??= spawn('/bin/bash', ['-c', m.command], { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return send({ t: 'error', id: m.id, message: String((e && e.message) || e) });
  }
  // The next spare, once this command is on its way.
  setImmediate(() => prepare(m));
  const job = { child, total: 0 };
  jobs.set(m.id, job);
  const onData = (chunk) => {
    const room = m.maxBytes + 1 - Math.min(job.total, m.maxBytes + 1);
    job.total += chunk.length;
    if (room > 0) send({ t: 'out', id: m.id, data: chunk.length > room ? chunk.subarray(0, room) : chunk });
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('error', (e) => {
    jobs.delete(m.id);
    send({ t: 'error', id: m.id, message: String((e && e.message) || e) });
  });
  if (child.pid !== undefined) send({ t: 'spawned', id: m.id, pid: child.pid, warm });
  child.on('exit', (code, signal) => {
    killGroup(child.pid);
    send({ t: 'exit', id: m.id, code, signal });
  });
  child.on('close', () => {
    if (!jobs.delete(m.id)) return;
    send({ t: 'close', id: m.id, total: job.total });
  });
}
process.on('message', (m) => {
  if (m && m.t === 'spawn') start(m);
  else if (m && m.t === 'prepare') prepare(m);
  else if (m && m.t === 'release') {
    const job = jobs.get(m.id);
    jobs.delete(m.id);
    if (job) { job.child.stdout.destroy(); job.child.stderr.destroy(); }
  }
});
process.on('disconnect', () => {
  dropSpare();
  for (const job of jobs.values()) if (job.child.pid !== undefined) killGroup(job.child.pid);
  process.exit(0);
});
send({ t: 'ready' });
`;
