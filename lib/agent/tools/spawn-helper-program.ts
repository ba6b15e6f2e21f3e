// The spawn helper's own program, run as `node -e HELPER_PROGRAM` with an IPC channel. It is kept
// as plain CommonJS text (not a module of this project) so it runs the same from a Next build, a
// test runner or a plain Node script, with no file to locate at run time.
//
// Protocol (IPC, advanced serialization so output chunks travel as Buffers):
//   parent -> helper  { t: 'spawn', id, command, cwd, env, maxBytes }   run /bin/bash -c command
//                     { t: 'bind', id, sid, maxBytes }   the server handed spare sid a command: it is job id
//                     { t: 'forget', sid }               the server will not use spare sid: kill it
//                     { t: 'release', id }               stop reading its output
//                     { t: 'prepare', cwd, env }         have a spare bash ready
//   helper -> parent  { t: 'ready' }
//                     { t: 'spare', sid, pid, key } + the write end of its command pipe (a handle)
//                     { t: 'spare-gone', sid }           spare sid ended before it was bound
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
// request to the command running, so one bash is started ahead of time, in / with the environment
// of the last command, waiting on fd 3 for a directory, a command and an exec flag (each
// NUL-terminated). It changes to the directory (`cd -P`, as a start there would have it) and runs
// the command with `eval`, in the same state as `bash -c` (same $0, options, variables, process
// group, closed stdin, exit status; a syntax error says "eval" instead of "-c"). A lone simple
// command is exec'd in place of the shell, as bash -c does (the flag: spare-bash.ts).
//
// The write end of fd 3 is handed to the server (`spare`), which writes the command itself: the
// approved command reaches bash in one write, without waiting for this process to wake up (about
// 0.5 ms on a 2-core VM). The server then binds the spare to its job id (`bind`); output and exit
// seen before that are held and replayed. A spare is used once, for a command of at most
// SPARE_MAX_BYTES without NUL in an existing directory (the server checks). If the server lets go
// of the write end without a command (another environment, the helper or the server died), bash
// reads EOF and exits without running anything.
export const HELPER_PROGRAM = String.raw`
'use strict';
const { spawn } = require('node:child_process');
const jobs = new Map();
const send = (m) => { if (process.connected) process.send(m); };
const killGroup = (pid) => { try { process.kill(-pid, 'SIGKILL'); } catch {} };
// What it leaves as bash -c would have it: OLDPWD exported and unset, SECONDS from 0, $_ the shell,
// BASH_EXECUTION_STRING the command. (declare -p differs only in PIPESTATUS being set.)
// With the third field set, a simple command is exec'd as bash -c would (spare-bash.ts), if bash
// finds it. (A dollar sign before a brace is written as a substitution of '$' in this source, which
// is a template literal.)
const SPARE = 'IFS= read -r -d "" -u 3 __gatehouse_cwd && IFS= read -r -d "" -u 3 __gatehouse_command && ' +
  'IFS= read -r -d "" -u 3 __gatehouse_exec || exit 97; exec 3<&-; ' +
  'cd -P -- "$__gatehouse_cwd" || exit 1; unset OLDPWD __gatehouse_cwd; declare -x OLDPWD; SECONDS=0; ' +
  '[[ -n $__gatehouse_exec ]] && hash -- "${'$'}{__gatehouse_command%% *}" 2>/dev/null || __gatehouse_exec=; ' +
  'BASH_EXECUTION_STRING=$__gatehouse_command; eval "unset __gatehouse_command __gatehouse_exec; : /bin/bash; ${'$'}{__gatehouse_exec:+exec }$__gatehouse_command"';
// The newest spare (handed to the server, not bound yet); every spare not yet bound or forgotten, by sid.
let spare;
const spares = new Map();
let nextSid = 1;
const keyOf = (env) => JSON.stringify(env);
function forget(s) {
  spares.delete(s.sid);
  if (spare === s) spare = undefined;
  if (s.child.pid !== undefined) killGroup(s.child.pid);
}
// A spare is killed only when the server says it will not use it (forget), never on this side's
// own account: the server may have written a command to it already.
function prepare(m) {
  const key = keyOf(m.env);
  if (spare && spare.key === key && !spare.dead) return;
  let child;
  try {
    child = spawn('/bin/bash', ['-c', SPARE], { cwd: '/', env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  } catch {
    return;
  }
  if (child.pid === undefined) { child.on('error', () => {}); return; }
  // Until bound: output is held (held: chunks, total), and the end is remembered.
  const s = { sid: nextSid++, key, env: m.env, child, dead: false, job: undefined, held: [], total: 0, exit: undefined, closed: false };
  const onData = (chunk) => {
    if (s.job) return s.job.onData(chunk);
    s.total += chunk.length;
    if (s.total <= 1 << 20) s.held.push(chunk);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('error', () => {});
  child.on('exit', (code, signal) => {
    s.dead = true;
    killGroup(child.pid);
    if (s.job) return s.job.onExit(code, signal);
    s.exit = { code, signal };
    if (spare === s) spare = undefined;
    // Ended unbound: the server drops it (forget), or binds it if it had written a command already.
    send({ t: 'spare-gone', sid: s.sid });
  });
  child.on('close', () => {
    if (s.job) return s.job.onClose();
    s.closed = true;
  });
  child.stdio[3].on('error', () => {});
  spares.set(s.sid, s);
  spare = s;
  // The write end goes to the server; this process's copy is closed once it is sent (so the
  // child's 'close' still comes, which a copy closed by send() itself would never signal).
  const pipe = child.stdio[3];
  if (!process.connected) return pipe.destroy();
  process.send({ t: 'spare', sid: s.sid, pid: child.pid, key }, pipe, { keepOpen: true }, () => pipe.destroy());
}
function track(id, child, maxBytes) {
  const job = { child, total: 0 };
  jobs.set(id, job);
  job.onData = (chunk) => {
    const room = maxBytes + 1 - Math.min(job.total, maxBytes + 1);
    job.total += chunk.length;
    if (room > 0) send({ t: 'out', id, data: chunk.length > room ? chunk.subarray(0, room) : chunk });
  };
  job.onExit = (code, signal) => send({ t: 'exit', id, code, signal });
  job.onClose = () => {
    if (!jobs.delete(id)) return;
    send({ t: 'close', id, total: job.total });
  };
  return job;
}
function bind(m) {
  const s = spares.get(m.sid);
  if (!s) return send({ t: 'error', id: m.id, message: 'the spare bash was gone before the command reached it' });
  spares.delete(s.sid);
  if (spare === s) spare = undefined;
  const job = track(m.id, s.child, m.maxBytes);
  s.job = job;
  send({ t: 'spawned', id: m.id, pid: s.child.pid, warm: true });
  job.total = 0;
  for (const chunk of s.held) job.onData(chunk);
  job.total = s.total;
  if (s.exit) job.onExit(s.exit.code, s.exit.signal);
  if (s.closed) job.onClose();
  prepareAfter(s.child, { env: s.env });
}
// The next spare, once the command exited or had the machine to itself for 30 ms: its own start
// (exec, dynamic linking) is not slowed down by a bash starting beside it on a 2-core machine.
function prepareAfter(child, m) {
  let done = false;
  const next = () => { if (!done) { done = true; clearTimeout(timer); prepare(m); } };
  const timer = setTimeout(next, 30);
  child.once('exit', next);
}
function start(m) {
  let child;
  try {
    child = spawn('/bin/bash', ['-c', m.command], { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return send({ t: 'error', id: m.id, message: String((e && e.message) || e) });
  }
  prepareAfter(child, m);
  const job = track(m.id, child, m.maxBytes);
  child.stdout.on('data', job.onData);
  child.stderr.on('data', job.onData);
  child.on('error', (e) => {
    jobs.delete(m.id);
    send({ t: 'error', id: m.id, message: String((e && e.message) || e) });
  });
  if (child.pid !== undefined) send({ t: 'spawned', id: m.id, pid: child.pid, warm: false });
  child.on('exit', (code, signal) => {
    killGroup(child.pid);
    job.onExit(code, signal);
  });
  child.on('close', () => job.onClose());
}
process.on('message', (m) => {
  if (!m) return;
  if (m.t === 'spawn') start(m);
  else if (m.t === 'bind') bind(m);
  else if (m.t === 'prepare') prepare(m);
  else if (m.t === 'forget') { const s = spares.get(m.sid); if (s) forget(s); }
  else if (m.t === 'release') {
    const job = jobs.get(m.id);
    jobs.delete(m.id);
    if (job) { job.child.stdout.destroy(); job.child.stderr.destroy(); }
  }
});
process.on('disconnect', () => {
  for (const s of spares.values()) if (s.child.pid !== undefined) killGroup(s.child.pid);
  for (const job of jobs.values()) if (job.child.pid !== undefined) killGroup(job.child.pid);
  process.exit(0);
});
send({ t: 'ready' });
`;
