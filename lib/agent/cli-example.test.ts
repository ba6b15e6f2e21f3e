// Keeps examples/cli-approval.ts working: run it as a user would, answering at its prompts.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

it('the CLI example asks at the terminal and obeys y / n', async () => {
  const workspace = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-cli-'));
  try {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'examples/cli-approval.ts', '$ echo hi from cli', '$ touch denied.txt'],
      {
        input: 'y\nn\nnot now\n',
        encoding: 'utf8',
        env: { ...process.env, GATEHOUSE_WORKSPACE: workspace, GATEHOUSE_MODEL: '' },
        timeout: 60_000,
      },
    );
    expect(result.status, result.stderr).toBe(0);
    const plain = result.stdout.replaceAll('\u001b[33m', '').replaceAll('\u001b[0m', '');
    expect(plain).toContain('Permission required: Run \'bash\' with arguments {"command":"echo hi from cli"}?');
    expect(result.stdout).toContain('bash: hi from cli');
    expect(result.stdout).toContain('bash: Tool execution denied: not now.');
    await expect(stat(path.join(workspace, 'denied.txt'))).rejects.toThrow();
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}, 60_000);
