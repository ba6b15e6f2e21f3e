// The seed design's "Timeout Handling", made a whole program: the CLI example's loop where an
// unanswered relay is denied with "Approval timeout" after RELAY_TIMEOUT. An answer typed after
// that comes too late: the relay is already decided (the respond is refused) and the tool does
// not run. RELAY_TIMEOUT_MS overrides the seed's 60 s (tests use a short one).
//
//   RELAY_TIMEOUT_MS=5000 npx tsx examples/seed/timeout.ts
import { createAgent, bashTool } from '../../lib/agent';
import * as readline from 'readline';

const rl = readline.createInterface({
  input: process.stdin,
  output: process.stdout,
});

const askUser = (question: string): Promise<string> => {
  return new Promise((resolve) => rl.question(question, resolve));
};

const agent = createAgent({ workspace: process.env.GATEHOUSE_WORKSPACE });

const params = {
  model: 'offline',
  messages: [{ role: 'user' as const, content: 'Clean up old log files' }],
  tools: [bashTool],
  permissions: { allowlist: [] },
};

const RELAY_TIMEOUT = Number(process.env.RELAY_TIMEOUT_MS ?? 60000); // 60 seconds

for await (const event of agent.invoke(params)) {
  if (event.type === 'relay') {
    console.log(`\n⚠️  ${event.tool}: ${JSON.stringify(event.params)}`);
    const timeoutId = setTimeout(() => {
      event.respond({ approved: false, reason: 'Approval timeout' });
      console.log('\n⏱️  No answer in time: denied (Approval timeout)');
    }, RELAY_TIMEOUT);

    const approved = await askUser('Approve? (y/n) ');
    clearTimeout(timeoutId);

    event.respond({ approved: approved === 'y' });
  }

  if (event.type === 'tool_result') {
    console.log(`✅ Result: ${event.output}`);
  }
}

rl.close();
