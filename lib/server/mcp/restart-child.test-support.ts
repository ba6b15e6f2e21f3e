// The first life of a restart test's Gatehouse, in a process of its own so the test can kill it
// (SIGKILL: no shutdown, nothing settled). Starts a run whose one call asks; prints
// `{"runId","sessionId","relayId"}` once the relay is stored; with `approve`, approves it as a
// person does (the settle claims the call) and the call goes out to the upstream server. Then it
// waits to be killed. Usage: tsx restart-child.test-support.ts <dataDir> <url> <workspace> <approve|wait> <text>
import { bootProcess, notesCall } from './restart.test-support';

const [dataDir, url, workspace, mode, text] = process.argv.slice(2) as [string, string, string, string, string];
const booted = await bootProcess(dataDir, url, workspace);
const { runId, sessionId } = await booted.runs.start({ messages: [{ role: 'user', content: notesCall(text) }] });
await booted.runs.subscribe(runId, 0, (event) => {
  if (event.type !== 'relay') return;
  process.stdout.write(`${JSON.stringify({ runId, sessionId, relayId: event.id })}\n`);
  if (mode === 'approve')
    void booted.runs.resolve(event.id, { sessionId, response: { approved: true }, decidedBy: 'alice' });
});
// Kept alive by the run and the upstream connection until killed.
setInterval(() => undefined, 60_000);
