// The terminal approval flow against a running Gatehouse server, with an API token: the run lives
// on the server (so it is also visible, and answerable, in the browser), and each call the policy
// asks about is put to you here: y (approve once), a (always allow), n (deny, with a reason).
//
//   GATEHOUSE_URL=http://127.0.0.1:3000 GATEHOUSE_TOKEN=gh_... npx tsx examples/cli-remote.ts '$ ls -la'
//
// Create a token on the Users page (your own API tokens), or use GATEHOUSE_ADMIN_TOKEN.
import { createInterface } from 'node:readline';
import { stdin, stdout } from 'node:process';
import type { RelayEvent, ServerEvent } from '../lib/contract';
import { parseSseBlock } from '../lib/contract/sse';

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

async function decide(relay: RelayEvent): Promise<void> {
  stdout.write(`\n\u001b[33mPermission required\u001b[0m: ${relay.prompt}\n  why: ${relay.decision.explanation}\n`);
  const preview = relay.preview as { diff?: string } | undefined;
  if (preview?.diff) stdout.write(`${preview.diff}\n`);
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
  const answer = await fetch(`${base}/api/chat/relay/${relay.id}`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ sessionId: relay.sessionId, response }),
  });
  // 409: someone decided first (in the browser, say); the stream says what happened.
  if (!answer.ok && answer.status !== 409)
    stdout.write(`  (the server refused the decision: ${answer.status} ${await answer.text()})\n`);
}

async function run(message: string): Promise<number> {
  const response = await fetch(`${base}/api/chat`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ messages: [{ role: 'user', content: message }] }),
  });
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
      // The server's events, as the contract has them (lib/contract/events.ts).
      const data = event.data as ServerEvent;
      if (data.type === 'connected')
        stdout.write(`run ${data.runId} (open ${base}/?run=${data.runId} to follow it in the browser)\n`);
      else if (data.type === 'text') stdout.write(data.content);
      else if (data.type === 'relay') await decide(data);
      else if (data.type === 'relay_resolved')
        stdout.write(`  ${data.status} by ${data.decidedBy}${data.reason ? ` (${data.reason})` : ''}\n`);
      else if (data.type === 'error') stdout.write(`\nerror: ${data.message}\n`);
      else if (data.type === 'done') return (stdout.write('\n'), 0);
    }
  }
  return 0;
}

process.exit(await run(process.argv.slice(2).join('\n') || 'ls'));
