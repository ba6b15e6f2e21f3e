// gatehouse-hook.mjs --codex and the hooks.json line that runs it: Gatehouse's allow reaches Codex
// as the PreToolUse output with no decision, a deny as exit 2 with the reason, and every failure
// blocks the call (exit 2 with a non-empty reason on stderr), since Codex 0.169.0 runs the call
// after any other exit, an unsupported answer, or an exit 2 with nothing on stderr.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexHookSettings } from '../lib/contract/codex-settings';
import { hookTarget, json, runHook, SCRIPT } from './hook-script.test-support';

const INPUT = JSON.stringify({
  session_id: 's-1',
  cwd: '/home/dev/p',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  tool_use_id: 'call_1',
});

const target = hookTarget();
const run = (argv: string[] | string, vars?: Record<string, string>) =>
  runHook(argv, INPUT, { shell: '/bin/sh', ...(vars ? { vars } : {}) });

const url = () => `${target.base()}/api/hooks/codex?deadline=45`;
const ALLOW = { hookSpecificOutput: { hookEventName: 'PreToolUse' } };
const deny = (reason: string) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
});

describe('gatehouse-hook.mjs --codex passes Gatehouse’s decision to Codex', () => {
  it('posts the hook input unchanged with the bearer token, and prints the allow with no decision, exit 0', async () => {
    target.reply = json(200, ALLOW);
    const result = await run([url(), '--codex']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(ALLOW);
    expect(target.seen).toEqual([{ url: '/api/hooks/codex?deadline=45', authorization: 'Bearer tok-1', body: INPUT }]);
  });

  it('answers a deny with exit 2 and the reason on stderr (and the deny on stdout)', async () => {
    target.reply = json(200, deny('no curl'));
    const result = await run([url(), '--codex']);
    expect(result).toMatchObject({ code: 2, stderr: 'no curl\n' });
    expect(JSON.parse(result.stdout)).toEqual(deny('no curl'));
  });

  it('gives a deny with an empty reason one (Codex runs the call on an exit 2 with empty stderr)', async () => {
    target.reply = json(200, deny('  '));
    expect(await run([url(), '--codex'])).toMatchObject({ code: 2, stderr: 'Gatehouse denied the call\n' });
  });
});

describe('gatehouse-hook.mjs --codex fails closed: exit 2 with a reason, no allow on stdout', () => {
  it.each([
    ['an empty object', json(200, {}), /not a PreToolUse hook output/],
    ["Gemini CLI's answer format", json(200, { decision: 'allow', reason: 'x' }), /not a PreToolUse hook output/],
    [
      'an explicit allow (Codex would reject it and run the call)',
      json(200, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }),
      /permissionDecision is "allow", not deny/,
    ],
    [
      'another event',
      json(200, { hookSpecificOutput: { hookEventName: 'PostToolUse' } }),
      /not a PreToolUse hook output/,
    ],
    ['a 200 that is not JSON', json(200, '<html>proxy</html>'), /not JSON/],
    ['an error status (500)', json(500, 'boom'), /answered 500: boom/],
  ])('on %s', async (_case, answer, reason) => {
    target.reply = answer;
    const result = await run([url(), '--codex']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(reason);
  });

  it('when Gatehouse is unreachable, or without a token', async () => {
    const down = await run(['http://127.0.0.1:9/api/hooks/codex', '--codex']);
    expect(down).toMatchObject({ code: 2, stdout: '' });
    expect(down.stderr).toMatch(/unreachable .*nothing runs without its decision/);
    const noToken = await run([url(), '--codex'], {});
    expect(noToken).toMatchObject({ code: 2, stdout: '' });
    expect(noToken.stderr).toMatch(/GATEHOUSE_TOKEN is not set/);
  });

  it('when Gatehouse does not answer within --timeout', async () => {
    target.reply = () => {}; // never answers
    const started = Date.now();
    const result = await run([url(), '--codex', '--timeout', '0.3']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/no answer within 0.3 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('the generated hooks.json command', () => {
  const command = (hookScript: string, baseUrl = target.base()) =>
    codexHookSettings({ baseUrl, hookScript, deadlineS: 45 }).hooks.PreToolUse[0]!.hooks[0]!;

  it('runs the hook against /api/hooks/codex in Codex mode, and outlives its give-up time', async () => {
    target.reply = json(200, ALLOW);
    const hook = command(SCRIPT);
    expect(hook.timeout).toBe(60); // seconds; the script gives up at 45 + 5 s
    expect(await run(hook.command)).toMatchObject({ code: 0 });
    expect(target.seen[0]?.url).toBe('/api/hooks/codex?deadline=45');
  });

  it("keeps a deny's exit 2 and its reason alone", async () => {
    target.reply = json(200, deny('no curl'));
    expect(await run(command(SCRIPT).command)).toMatchObject({ code: 2, stderr: 'no curl\n' });
  });

  it('blocks with a reason on stderr when the script cannot even start, or node is missing', async () => {
    const missing = await run(command('/nonexistent/gatehouse-hook.mjs').command);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Gatehouse hook failed \(exit 1\)/);
    const noNode = await run(command(SCRIPT).command, { GATEHOUSE_TOKEN: 't', PATH: '/nonexistent' });
    expect(noNode.code).toBe(2);
    expect(noNode.stderr).toMatch(/Gatehouse hook failed \(exit 127\)/);
  });

  it("is the block the README's Codex section shows", () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Codex CLI'));
    const block = section.slice(section.indexOf('```json') + 7, section.indexOf('```', section.indexOf('```json') + 7));
    const built = codexHookSettings({
      baseUrl: 'https://gatehouse.example.com',
      hookScript: '/opt/gatehouse/gatehouse-hook.mjs',
      deadlineS: 300,
    });
    expect(JSON.parse(block)).toEqual(built);
  });

  it('refuses a relative script path or a URL with a query, naming the field', () => {
    expect(() => command('gatehouse-hook.mjs')).toThrow(/hookScript/);
    expect(() => command(SCRIPT, 'http://x/?a=1')).toThrow(/baseUrl/);
  });
});
