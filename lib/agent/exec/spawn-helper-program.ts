// The spawn helper's own program, run as `node -e HELPER_PROGRAM` with an IPC channel. It is kept
// as plain CommonJS text (not a module of this project) so it runs the same from a Next build, a
// test runner or a plain Node script, with no file to locate at run time.
//
// Protocol (IPC, advanced serialization so output chunks travel as Buffers):
//   parent -> helper  { t: 'spawn', id, command, cwd, env, maxBytes }   run /bin/bash -c command
//                     { t: 'used', sid }                 the server handed spare sid a command (sent at its
//                                                    first output or exit, or 30 ms after): start another
//                     { t: 'forget', sid }               the server will not use spare sid: kill it
//                     { t: 'release', id }               stop reading its output
//                     { t: 'prepare', cwd, env }         have SPARES spare bashes ready
//   helper -> parent  { t: 'ready' }
//                     { t: 'spare-out', sid, fd } + the read end of its stdout (fd 1) or stderr (fd 2)
//                     { t: 'spare', sid, pid, key } + the write end of its command pipe (after both outputs)
//                     { t: 'spare-exit', sid, code, signal }  spare sid exited (its group was killed)
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
// request to the command running, so bashes are started ahead of time (two: SPARES), in / with the
// environment of the last command, each waiting on fd 3 for a directory, a command and an exec flag (each
// NUL-terminated). It changes to the directory (`cd -P`, as a start there would have it) and runs
// the command with `eval`, in the same state as `bash -c` (same $0, options, variables, process
// group, closed stdin, exit status; a syntax error says "eval" instead of "-c"). A lone simple
// command is exec'd in place of the shell, as bash -c does (the flag: spare-bash.ts).
//
// The spare's pipes are handed to the server: the read ends of its stdout and stderr first, then
// the write end of fd 3 (`spare`), and this process closes its own copies before the next is sent,
// so it never reads a byte of the command's output. The server writes the command itself and reads
// the output itself: the approved command reaches bash in one write, and this process is not woken
// while it starts (on a 2-core VM, a third process waking there delays the command's exec by about
// 0.5 ms). It only reports the spare's exit (`spare-exit`, by sid), and is told it was used
// (`used`) once that matters, to start the next. A spare is used once, for a command of at most
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
// Every spare the server has not yet said it let go of (forget), or used that has not exited, by
// sid: it says one or the other of each. Two are kept ready for the environment last asked for:
// handing one over takes the server three turns of its event loop (a handle each), which a busy
// server may delay by tens of ms, so the next command finds the other one ready meanwhile.
const SPARES = 2;
const spares = new Map();
let nextSid = 1;
const keyOf = (env) => JSON.stringify(env);
function forget(s) {
  spares.delete(s.sid);
  if (!s.dead) killGroup(s.child.pid);
}
// A spare is killed only when the server says it will not use it (forget), never on this side's
// own account: the server may have written a command to it already.
function prepare(m) {
  const key = keyOf(m.env);
  let ready = 0;
  for (const s of spares.values()) if (s.key === key && !s.dead && !s.used) ready++;
  for (; ready < SPARES; ready++) startSpare(m.env, key);
}
function startSpare(env, key) {
  let child;
  try {
    child = spawn('/bin/bash', ['-c', SPARE], { cwd: '/', env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  } catch {
    return;
  }
  if (child.pid === undefined) { child.on('error', () => {}); return; }
  const s = { sid: nextSid++, key, env, child, dead: false, used: false };
  child.on('error', () => {});
  child.on('exit', (code, signal) => {
    s.dead = true;
    killGroup(child.pid);
    if (s.used) spares.delete(s.sid);
    send({ t: 'spare-exit', sid: s.sid, code, signal });
  });
  for (const pipe of child.stdio.slice(1)) pipe.on('error', () => {});
  spares.set(s.sid, s);
  // Each pipe goes to the server, and this process's copy is closed once it is sent, before the
  // next is sent: the command pipe goes last, so no command (and no output) can exist while this
  // process still holds a read end. (A copy closed by send() itself would keep the child's 'close'
  // from ever coming.)
  const hand = (i) => {
    const pipe = child.stdio[i];
    if (!process.connected) return child.stdio.slice(i).forEach((p) => p.destroy());
    const message = i === 3 ? { t: 'spare', sid: s.sid, pid: child.pid, key } : { t: 'spare-out', sid: s.sid, fd: i };
    process.send(message, pipe, { keepOpen: true }, () => {
      pipe.destroy();
      if (i < 3) hand(i + 1);
    });
  };
  hand(1);
}
// The server handed spare sid a command, and it exited or had the machine to itself for 30 ms
// (the server times it): the next spare's own start (exec, dynamic linking) is not slowed down by
// a command starting beside it on a 2-core machine.
function used(m) {
  const s = spares.get(m.sid);
  if (!s || s.used) return;
  s.used = true;
  if (s.dead) spares.delete(s.sid);
  prepare({ env: s.env });
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
  else if (m.t === 'used') used(m);
  else if (m.t === 'prepare') prepare(m);
  else if (m.t === 'forget') { const s = spares.get(m.sid); if (s) forget(s); }
  else if (m.t === 'release') {
    const job = jobs.get(m.id);
    jobs.delete(m.id);
    if (job) { job.child.stdout.destroy(); job.child.stderr.destroy(); }
  }
});
function shutdown() {
  for (const s of spares.values()) if (!s.dead) killGroup(s.child.pid);
  for (const job of jobs.values()) if (job.child.pid !== undefined) killGroup(job.child.pid);
  process.exit(0);
}
process.on('disconnect', shutdown);
// A message sent while the channel was already gone (a short script that ended before this helper
// was up) fails with EPIPE as an 'error' on process: the server is gone, so leave as at a disconnect.
process.on('error', shutdown);
// When the channel closes while a handle is on its way (a spare's pipe sent, its acknowledgement
// not yet back), Node marks the process disconnected but never emits 'disconnect': the channel
// is checked here too.
setInterval(() => { if (!process.connected) shutdown(); }, 200).unref();
send({ t: 'ready' });
`;
