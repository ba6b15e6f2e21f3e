// A short script (the CLI examples) may end before the helper it started is up: the helper then
// finds its channel gone when it says it is ready, and must leave quietly, not print a crash on
// the terminal the script shared with it.
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';

it('a helper whose parent already exited leaves without an error on the shared stderr', async () => {
  // Starts the helper and exits at once (the helper does not keep its parent alive).
  const script =
    "import { prepareCommands } from './lib/agent/exec/spawn-helper.ts'; prepareCommands({ cwd: '/', env: {} });";
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close' waits for every holder of the pipe, the helper included, to be gone.
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  expect(stderr).not.toMatch(/EPIPE|Unhandled 'error' event/);
  expect(stderr).toBe('');
}, 30_000);
