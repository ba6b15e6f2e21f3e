// The spawn helper's own program, run as `node -e HELPER_PROGRAM` with an IPC channel. It is kept
// as plain CommonJS text (not a module of this project) so it runs the same from a Next build, a
// test runner or a plain Node script, with no file to locate at run time.
//
// Protocol (IPC, advanced serialization so output chunks travel as Buffers):
//   parent -> helper  { t: 'spawn', id, command, cwd, env, maxBytes }   run /bin/bash -c command
//                     { t: 'release', id }                              stop reading its output
//   helper -> parent  { t: 'ready' }
//                     { t: 'spawned', id, pid }      bash started, leading a new process group
//                     { t: 'error', id, message }    bash could not be started (nothing ran)
//                     { t: 'out', id, data }         output, only the first maxBytes (+1) bytes
//                     { t: 'exit', id, code, signal } bash exited; its group was killed
//                     { t: 'close', id, total }      pipes closed; total = bytes of output seen
// When the channel closes (the server died or let go), every group the helper started is killed
// and the helper exits: nothing it started outlives the server.
export const HELPER_PROGRAM = String.raw`
'use strict';
const { spawn } = require('node:child_process');
const jobs = new Map();
const send = (m) => { if (process.connected) process.send(m); };
const killGroup = (pid) => { try { process.kill(-pid, 'SIGKILL'); } catch {} };
function start(m) {
  let child;
  try {
    child = spawn('/bin/bash', ['-c', m.command], { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return send({ t: 'error', id: m.id, message: String((e && e.message) || e) });
  }
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
  if (child.pid !== undefined) send({ t: 'spawned', id: m.id, pid: child.pid });
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
  else if (m && m.t === 'release') {
    const job = jobs.get(m.id);
    jobs.delete(m.id);
    if (job) { job.child.stdout.destroy(); job.child.stderr.destroy(); }
  }
});
process.on('disconnect', () => {
  for (const job of jobs.values()) if (job.child.pid !== undefined) killGroup(job.child.pid);
  process.exit(0);
});
send({ t: 'ready' });
`;
