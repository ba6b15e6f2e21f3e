// The seed design's "Pre-Approvals", made a whole program: npm, bun and read calls are allowed
// up front, so "Run the test suite" (the offline model's `npm test`) runs without a relay. A relay
// for anything else is denied here and reported.
// One line differs from the seed: `npm test` is spelled out. In Gatehouse a wildcard allow rule
// (`npm **`) never allows what runs package scripts (`npm test`, `npm run`, `npx`...): the agent
// could have written the script itself (docs/decisions/0009).
//
//   npx tsx examples/seed/pre-approvals.ts
import { createAgent, bashTool, readFileTool } from '../../lib/agent';

const agent = createAgent({ workspace: process.env.GATEHOUSE_WORKSPACE });

for await (const event of agent.invoke({
  model: 'offline',
  messages: [{ role: 'user', content: 'Run the test suite' }],
  tools: [bashTool, readFileTool],
  permissions: {
    allowlist: [
      { tool: 'bash', params: { command: 'npm **' } },
      { tool: 'bash', params: { command: 'npm test' } },
      { tool: 'bash', params: { command: 'bun **' } },
      { tool: 'read_file' },
    ],
  },
})) {
  // No relay events for npm/bun commands or read operations
  if (event.type === 'relay') {
    console.log(`Unexpected relay for ${event.tool}: denied`);
    event.respond({ approved: false, reason: 'Not pre-approved' });
  }

  if (event.type === 'tool_call') {
    console.log(`📞 Calling ${event.name}: ${JSON.stringify(event.params)}`);
  }

  if (event.type === 'tool_result') {
    console.log(`✅ Result: ${event.output}`);
  }
}
