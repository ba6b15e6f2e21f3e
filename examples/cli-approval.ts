// The seeds' terminal flow on top of lib/agent: the agent runs tools, and every call the policy
// asks about is put to you at the prompt: y (approve once), n (deny, with a reason), a (always
// allow: add the suggested rule for the rest of the session). No web server involved.
//
//   npx tsx examples/cli-approval.ts                      # interactive: type instructions
//   npx tsx examples/cli-approval.ts '$ ls -la' 'write notes.md: hello'
//
// The offline model understands `$ <command>`, `read <path>`, `ls [<path>]`, `write <path>: <text>`,
// `edit <path>: <old> => <new>`, `fetch <url>`; set GATEHOUSE_MODEL=openai:gpt-4o (with
// OPENAI_API_KEY) or another provider to talk to a real model.
import { createInterface } from 'node:readline';
import { stdin, stdout } from 'node:process';
import { createAgent, resolveModel, type AgentEvent } from '../lib/agent';
import { describeRule } from '../lib/policy';

const rl = createInterface({ input: stdin, terminal: false });
// Read lines through the iterator, so answers piped in ahead of their questions are not lost.
const lines = rl[Symbol.asyncIterator]();
async function ask(question: string): Promise<string | undefined> {
  stdout.write(question);
  const next = await lines.next();
  return next.done ? undefined : String(next.value);
}
const agent = createAgent({
  model: resolveModel(process.env.GATEHOUSE_MODEL),
  workspace: process.env.GATEHOUSE_WORKSPACE,
});
const sessionId = `cli-${process.pid}`;

async function answer(relay: Extract<AgentEvent, { type: 'relay' }>): Promise<void> {
  const who = relay.parents.length > 0 ? ` (agent ${[...relay.parents, relay.agentId].join(' > ')})` : '';
  stdout.write(
    `\n\u001b[33mPermission required\u001b[0m${who}: ${relay.prompt}\n  why: ${relay.decision.explanation}\n`,
  );
  const preview = relay.preview as { diff?: string } | undefined;
  if (preview?.diff) stdout.write(`${preview.diff}\n`);
  for (const rule of relay.suggestedRules) stdout.write(`  always would add: ${describeRule(rule)}\n`);
  for (;;) {
    const line = await ask('  [y] approve once  [a] always allow  [n] deny > ');
    if (line === undefined) return void (await relay.respond({ approved: false, reason: 'No answer (input closed)' }));
    const choice = line.trim().toLowerCase();
    if (choice === 'y' || choice === 'yes') return void (await relay.respond({ approved: true }));
    if (choice === 'a' || choice === 'always') return void (await relay.respond({ approved: true, always: true }));
    if (choice === 'n' || choice === 'no') {
      const reason = ((await ask('  reason (optional) > ')) ?? '').trim();
      return void (await relay.respond({ approved: false, ...(reason ? { reason } : {}) }));
    }
  }
}

async function runOnce(message: string): Promise<void> {
  const run = agent.invoke({ messages: [{ role: 'user', content: message }], sessionId });
  for await (const event of run) {
    if (event.type === 'text') stdout.write(event.content);
    else if (event.type === 'relay')
      await answer(event).catch((error) => stdout.write(`  (${(error as Error).message})\n`));
    else if (event.type === 'relay_resolved' && event.decidedBy !== 'user')
      stdout.write(`  relay ${event.status} (${event.reason ?? event.decidedBy})\n`);
    else if (event.type === 'error') stdout.write(`\nerror: ${event.message}\n`);
  }
  stdout.write('\n');
}

const args = process.argv.slice(2);
if (args.length > 0) {
  await runOnce(args.join('\n'));
} else {
  for (;;) {
    const line = await ask('you> ');
    if (line === undefined || line.trim() === 'exit') break;
    if (line.trim()) await runOnce(line.replaceAll('\\n', '\n'));
  }
}
rl.close();
