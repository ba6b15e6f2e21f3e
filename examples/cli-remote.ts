// The terminal approval flow against a running Gatehouse server, with an API token: the run lives
// on the server (so it is also visible, and answerable, in the browser), and each call the policy
// asks about is put to you here: y (approve once), a (always allow), n (deny, with a reason).
//
//   GATEHOUSE_URL=http://127.0.0.1:3000 GATEHOUSE_TOKEN=gh_... npx tsx examples/cli-remote.ts '$ ls -la'
//
// Create a token on the Users page (your own API tokens), or use GATEHOUSE_ADMIN_TOKEN.
import { createInterface } from 'node:readline';
import { stdin, stdout } from 'node:process';
import { parseSseBlock } from '../lib/client/sse-parse';

const base = (process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const token = process.env.GATEHOUSE_TOKEN;
if (!token) {
  console.error('Set GATEHOUSE_TOKEN to an API token (Users page -> your API tokens, or GATEHOUSE_ADMIN_TOKEN).');
  process.exit(2);
}
const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
const lines = createInterface({ input: stdin, terminal: false })[Symbol.asyncIterator]();
async function ask(question: string): Promise<string | undefined> {
  stdout.write(question);
  const next = await lines.next();
  return next.done ? undefined : String(next.value);
}

interface Relay { id: string; sessionId: string; prompt: string; agentId: string; parents: string[]; decision: { explanation: string }; preview?: { diff?: string } }

async function decide(relay: Relay): Promise<void> {
  stdout.write(`\n\u001b[33mPermission required\u001b[0m: ${relay.prompt}\n  why: ${relay.decision.explanation}\n`);
  if (relay.preview?.diff) stdout.write(`${relay.preview.diff}\n`);
  let response: Record<string, unknown> | undefined;
  while (!response) {
    const line = await ask('  [y] approve once  [a] always allow  [n] deny > ');
    const choice = line?.trim().toLowerCase();
    if (choice === undefined) response = { approved: false, reason: 'No answer (input closed)' };
    else if (choice === 'y') response = { approved: true };
    else if (choice === 'a') response = { approved: true, always: true };
    else if (choice === 'n') {
      const reason = ((await ask('  reason (optional) > ')) ?? '').trim();
      response = { approved: false, ...(reason ? { reason } : {}) };
    }
  }
  const answer = await fetch(`${base}/api/chat/relay/${relay.id}`, { method: 'POST', headers: auth, body: JSON.stringify({ sessionId: relay.sessionId, response }) });
  // 409: someone decided first (in the browser, say); the stream says what happened.
  if (!answer.ok && answer.status !== 409) stdout.write(`  (the server refused the decision: ${answer.status} ${await answer.text()})\n`);
}

async function run(message: string): Promise<number> {
  const response = await fetch(`${base}/api/chat`, { method: 'POST', headers: auth, body: JSON.stringify({ messages: [{ role: 'user', content: message }] }) });
  if (!response.ok || !response.body) {
    console.error(`Could not start the run: ${response.status} ${await response.text()}`);
    return 1;
  }
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffer += decoder.decode(chunk.value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = parseSseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (!event) continue;
      const data = event.data;
      if (event.event === 'connected') stdout.write(`run ${String(data.runId)} (open ${base}/?run=${String(data.runId)} to follow it in the browser)\n`);
      else if (event.event === 'text') stdout.write(String(data.delta));
      else if (event.event === 'relay') await decide(data.relay as Relay);
      else if (event.event === 'relay_resolved' && data.decidedBy !== undefined) stdout.write(`  ${String(data.status)} by ${String(data.decidedBy)}${data.reason ? ` (${String(data.reason)})` : ''}\n`);
      else if (event.event === 'error') stdout.write(`\nerror: ${String(data.message)}\n`);
      else if (event.event === 'done') return stdout.write('\n'), 0;
    }
  }
  return 0;
}

process.exit(await run(process.argv.slice(2).join('\n') || 'ls'));
