// `npm run policy:test -- <file>` run as a CI step would: the exit code says whether every test
// of the policy file passes (0), one fails (1), or the file is not a policy it can test (2). The
// cases run its main function in this process, with what it prints captured; the command line
// itself (scripts/policy-test.ts: the exit code and the streams) is run as a process at the end.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyTestMain } from './policy-test-main';

const ROOT = path.resolve(import.meta.dirname, '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'policy-test-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Outcome = { code: number | null; stdout: string; stderr: string };

/** main in this process, in the scratch folder, with its lines as the streams would carry them. */
async function run(args: string[]): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await policyTestMain(
    args,
    { out: (line) => (stdout += `${line}\n`), err: (line) => (stderr += `${line}\n`) },
    dir,
  );
  return { code, stdout, stderr };
}

/** The command line, as a CI step runs it. */
function runCommand(args: string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [path.join(ROOT, 'scripts', 'policy-test.ts'), ...args], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function policyFile(name: string, content: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return name;
}

const rules = [
  { action: 'allow', tool: 'bash', params: { command: 'git status' } },
  { action: 'deny', tool: 'bash', params: { command: 'rm -rf *' } },
];
const denyRm = { name: 'no rm', call: { tool: 'bash', params: { command: 'rm -r -f build' } }, expect: 'deny' };

describe('npm run policy:test', { timeout: 60_000 }, () => {
  it('exits 0 when every test passes, printing each and a summary', async () => {
    const result = await run([
      await policyFile('ok.json', {
        rules,
        tests: [denyRm, { call: { tool: 'bash', params: { command: 'git status' } }, expect: 'allow' }],
      }),
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      'PASS test #1 "no rm": bash {"command":"rm -r -f build"}: got deny as expected\nPASS test #2: bash {"command":"git status"}: got allow as expected\n2 tests: 2 passed, 0 failed\n',
    );
  });

  it('exits 1 when a test fails, naming what it expected, what it got and why', async () => {
    const result = await run([
      await policyFile('fail.json', {
        rules,
        tests: [denyRm, { call: { tool: 'bash', params: { command: 'git push' } }, expect: 'allow', mode: 'dontAsk' }],
      }),
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'FAIL test #2: bash {"command":"git push"} in mode dontAsk: expected allow, got deny\n     ',
    );
    expect(result.stdout).toMatch(/2 tests: 1 passed, 1 failed\n$/);
  });

  it("reads the seeds' permissions and the snake_case format with their tests", async () => {
    const seed = await policyFile('seed.json', {
      deny: [{ tool: 'bash', params: { command: 'rm *' } }],
      tests: [denyRm],
    });
    expect((await run([seed])).code).toBe(0);
    const snake = await policyFile('snake.json', {
      default_action: 'approve',
      rules: [{ tool: 'bash', action: 'deny', when: { param: 'command', op: 'command_blacklist', value: 'rm' } }],
      tests: [denyRm, { call: { tool: 'x', params: {} }, expect: 'approve' }],
    });
    expect(await run([snake])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('2 tests: 2 passed, 0 failed'),
    });
  });

  it('resolves paths against --workspace (default: the current directory)', async () => {
    const file = await policyFile('paths.json', {
      rules: [{ action: 'deny', tool: 'read_file', params: { path: '/srv/app/.env' } }],
      tests: [{ call: { tool: 'read_file', params: { path: '.env' } }, expect: 'deny' }],
    });
    expect((await run([file, '--workspace', '/srv/app'])).code).toBe(0);
    expect((await run([file])).code).toBe(1);
  });

  it('exits 0 for a policy without tests, saying so', async () => {
    expect(await run([await policyFile('none.json', { rules })])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('no tests'),
    });
  });

  it.each([
    ['a missing file', ['missing.json'], /^Cannot read .*missing\.json: ENOENT/],
    ['no file', [], /^Name the policy file to test\nusage: npm run policy:test/],
    ['an unknown option', ['x.json', '--fast'], /^Unknown option --fast\nusage:/],
  ])('exits 2 for %s, with a clear message', async (_what, args, message) => {
    const result = await run(args);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
  });

  it('exits 2 for a file that is not JSON, or not a valid policy, naming the field', async () => {
    const notJson = await run([await policyFile('broken.json', '{"rules": [')]);
    expect(notJson).toMatchObject({ code: 2, stdout: '' });
    expect(notJson.stderr).toMatch(/broken\.json is not valid JSON: /);
    const invalid = await run([
      await policyFile('invalid.json', { rules, tests: [{ call: { tool: 'bash', params: {} }, expect: 'sometimes' }] }),
    ]);
    expect(invalid).toMatchObject({ code: 2, stdout: '' });
    expect(invalid.stderr).toMatch(/invalid\.json is not a valid policy:\n {2}tests\.0\.expect: /);
  });
});

describe('the command line', { timeout: 60_000 }, () => {
  it('prints what main prints and exits with its code: 0 when the tests pass, 2 with the reason on stderr', async () => {
    const passing = await runCommand([await policyFile('cli-ok.json', { rules, tests: [denyRm] })]);
    expect(passing).toEqual({
      code: 0,
      stdout:
        'PASS test #1 "no rm": bash {"command":"rm -r -f build"}: got deny as expected\n1 test: 1 passed, 0 failed\n',
      stderr: '',
    });
    const broken = await runCommand([await policyFile('cli-broken.json', '{"rules": [')]);
    expect(broken).toMatchObject({ code: 2, stdout: '' });
    expect(broken.stderr).toMatch(/cli-broken\.json is not valid JSON: /);
  });
});
