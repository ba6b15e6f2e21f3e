// The seed design's "CLI Example" (simple command-line approval flow), as the design writes it.
// Only the names the design's own codebase defined are Gatehouse's: the imports, the harness
// (`createAgent`), the tool object (`bashTool`), the model (`offline`, which turns "Clean up old
// log files" into a bash call). GATEHOUSE_WORKSPACE sets the directory the tools act in.
//
//   npx tsx examples/seed/cli.ts
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
  messages: [{ role: 'user', content: 'Clean up old log files' }],
  tools: [bashTool],
  permissions: { allowlist: [] }, // Require approval for everything
})) {
  if (event.type === 'relay') {
    console.log(`\n⚠️  Permission Request:`);
    console.log(`   Tool: ${event.tool}`);
    console.log(`   Params:`, JSON.stringify(event.params, null, 2));

    const response = await askUser('   Approve? (y/n/always): ');
    const trimmed = response.trim().toLowerCase();

    if (trimmed === 'always') {
      event.respond({ approved: true, always: true });
      console.log('   ✅ Approved (always)');
    } else if (trimmed === 'y' || trimmed === 'yes') {
      event.respond({ approved: true });
      console.log('   ✅ Approved (once)');
    } else {
      event.respond({ approved: false, reason: 'User denied' });
      console.log('   ❌ Denied');
    }
  }

  if (event.type === 'text') {
    process.stdout.write(event.content);
  }

  if (event.type === 'tool_call') {
    console.log(`\n📞 Calling ${event.name}`);
  }

  if (event.type === 'tool_result') {
    console.log(`✅ Result: ${event.output}`);
  }
}

rl.close();
