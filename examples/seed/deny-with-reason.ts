// The seed design's "Deny with Reason", made a whole program: the snippet's relay handler inside
// the CLI example's loop. Answer `n` and the agent receives "Tool execution denied: Operation too
// risky. Try a safer approach." as the tool's result; anything else approves.
//
//   npx tsx examples/seed/deny-with-reason.ts
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

for await (const event of agent.invoke({
  model: 'offline',
  messages: [{ role: 'user', content: 'Deploy to staging' }],
  tools: [bashTool],
  permissions: { allowlist: [] },
})) {
  if (event.type === 'relay') {
    console.log(`\n⚠️  ${event.tool}: ${JSON.stringify(event.params)}`);
    const approved = await askUser('Approve? (y/n) ');

    if (approved === 'n') {
      event.respond({
        approved: false,
        reason: 'Operation too risky. Try a safer approach.',
      });
    } else {
      event.respond({ approved: true });
    }
  }

  if (event.type === 'tool_result') {
    console.log(`The agent receives: ${event.output}`);
  }

  if (event.type === 'text') {
    process.stdout.write(event.content);
  }
}

console.log();
rl.close();
