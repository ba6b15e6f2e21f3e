// The seed design's terminal examples, run as a person would: each answer typed at its prompt.
// What must hold is the design's flow: the relay shows the tool and params, y/always run the
// tool, n does not and the agent gets the reason, an unanswered relay is denied at the deadline.
import { stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExample, scratchWorkspace, type Terminal } from './terminal';

const TEST_TIMEOUT_MS = 90_000;
let workspace: Awaited<ReturnType<typeof scratchWorkspace>>;
let terminal: Terminal | undefined;

beforeEach(async () => {
  workspace = await scratchWorkspace();
});
afterEach(async () => {
  terminal?.kill();
  terminal = undefined;
  await workspace.remove();
});

const exists = (file: string) =>
  stat(path.join(workspace.dir, file)).then(
    () => true,
    () => false,
  );

/** A log file last changed ten days ago ("old"), and one changed now. */
async function logFiles(): Promise<void> {
  await writeFile(path.join(workspace.dir, 'old.log'), 'old\n');
  await writeFile(path.join(workspace.dir, 'new.log'), 'new\n');
  const tenDaysAgo = new Date(Date.now() - 10 * 24 * 3600 * 1000);
  await utimes(path.join(workspace.dir, 'old.log'), tenDaysAgo, tenDaysAgo);
}

function start(file: string, env: Record<string, string> = {}): Terminal {
  terminal = runExample(file, { GATEHOUSE_WORKSPACE: workspace.dir, ...env });
  return terminal;
}

describe('examples/seed/cli.ts: "Clean up old log files" asks y / n / always', () => {
  it.each([
    ['y', '✅ Approved (once)'],
    ['always', '✅ Approved (always)'],
  ])(
    'answering %j runs the command: the old log is deleted, the new one kept',
    async (answer, said) => {
      await logFiles();
      const t = start('examples/seed/cli.ts');
      // Gatehouse announces the call (tool_call, with the policy's decision) before asking about it.
      await t.waitFor('📞 Calling bash');
      await t.waitFor('⚠️  Permission Request:');
      await t.waitFor('   Tool: bash');
      await t.waitFor('"command": "find . -name \'*.log\' -mtime +7 -print -delete"');
      await t.waitFor('   Approve? (y/n/always): ');
      t.type(answer);
      await t.waitFor(said);
      await t.waitFor('✅ Result: ./old.log');
      expect(await t.exited()).toBe(0);
      expect(await exists('old.log')).toBe(false);
      expect(await exists('new.log')).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'answering n denies: nothing is deleted and the result is the denial with "User denied"',
    async () => {
      await logFiles();
      const t = start('examples/seed/cli.ts');
      await t.waitFor('   Approve? (y/n/always): ');
      t.type('n');
      await t.waitFor('   ❌ Denied');
      await t.waitFor('✅ Result: Tool execution denied: User denied');
      expect(await t.exited()).toBe(0);
      expect(await exists('old.log')).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('examples/seed/deny-with-reason.ts: "Deploy to staging"', () => {
  it(
    'n: the agent receives "Tool execution denied: Operation too risky. Try a safer approach." and nothing ran',
    async () => {
      const t = start('examples/seed/deny-with-reason.ts');
      await t.waitFor('Approve? (y/n) ');
      t.type('n');
      await t.waitFor('The agent receives: Tool execution denied: Operation too risky. Try a safer approach.');
      expect(await t.exited()).toBe(0);
      expect(await exists('deployments.txt')).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'y: the deployment runs',
    async () => {
      const t = start('examples/seed/deny-with-reason.ts');
      await t.waitFor('Approve? (y/n) ');
      t.type('y');
      await t.waitFor('The agent receives: deployed to staging');
      expect(await t.exited()).toBe(0);
      expect(await exists('deployments.txt')).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('examples/seed/timeout.ts: an unanswered relay is denied at RELAY_TIMEOUT', () => {
  // The design's snippet answers the relay a second time when the late answer comes: that second
  // respond must be harmless (the relay stays denied), as it is for the design's consumers.
  it(
    'after the timeout the call is denied with "Approval timeout"; a late y neither runs it nor crashes the program',
    async () => {
      await logFiles();
      const t = start('examples/seed/timeout.ts', { RELAY_TIMEOUT_MS: '300' });
      await t.waitFor('Approve? (y/n) ');
      await t.waitFor('⏱️  No answer in time: denied (Approval timeout)');
      t.type('y');
      await t.waitFor('✅ Result: Tool execution denied: Approval timeout');
      expect(await t.exited()).toBe(0);
      expect(await exists('old.log')).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'an answer before the timeout is the one that counts',
    async () => {
      await logFiles();
      const t = start('examples/seed/timeout.ts', { RELAY_TIMEOUT_MS: '60000' });
      await t.waitFor('Approve? (y/n) ');
      t.type('y');
      await t.waitFor('✅ Result: ./old.log');
      expect(await t.exited()).toBe(0);
      expect(t.output()).not.toContain('Approval timeout');
    },
    TEST_TIMEOUT_MS,
  );
});

describe('examples/seed/pre-approvals.ts: "Run the test suite" with npm pre-approved', () => {
  it(
    'runs npm test without any relay',
    async () => {
      await writeFile(
        path.join(workspace.dir, 'package.json'),
        JSON.stringify({ name: 'scratch', private: true, scripts: { test: 'echo all tests passed' } }),
      );
      const t = start('examples/seed/pre-approvals.ts');
      await t.waitFor('📞 Calling bash: {"command":"npm test"}');
      await t.waitFor('all tests passed');
      expect(await t.exited()).toBe(0);
      expect(t.output()).not.toContain('Unexpected relay');
    },
    TEST_TIMEOUT_MS,
  );
});
