// The terminal example against the real server with an API token: the call asks, "y" on stdin
// approves it, the command's output comes back; without a valid token the server says 401.
import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './support/auth';

function runCli(
  baseURL: string,
  token: string,
  message: string,
  input: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/cli-remote.ts', message], {
      env: { ...process.env, GATEHOUSE_URL: baseURL, GATEHOUSE_TOKEN: token },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    // A CLI that ends before reading its input closes the pipe: its output says why, not an EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

test('the remote CLI approves a call with an API token', async ({ baseURL, request }) => {
  const marker = `cli-remote-${Date.now()}`;
  const { code, out } = await runCli(baseURL!, E2E_ADMIN_TOKEN, `$ echo ${marker}`, 'y\n');
  expect(out).toContain('Permission required');
  expect(out).toContain('approved by admin');
  expect(out).toContain(`bash: ${marker}`);
  expect(code).toBe(0);
  const runId = /run ([0-9a-f-]{36})/.exec(out)?.[1];
  expect((await (await request.get(`/api/runs/${runId}`)).json()).run).toMatchObject({ status: 'done' });
});

test('the remote CLI without a valid token is refused with 401', async ({ baseURL }) => {
  const { code, out } = await runCli(baseURL!, 'gh_not-a-real-token', '$ echo never', '');
  expect(out).toContain('401');
  expect(code).toBe(1);
});
