// The Gemini CLI hook command (gatehouse-hook.mjs) and the settings line that runs it: Gatehouse's
// allow or deny is passed through, and every failure blocks the call (exit 2, reason on stderr,
// nothing on stdout), since Gemini CLI runs the call after any other exit or a non-JSON answer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCliHookSettings } from '../lib/contract/gemini-cli-settings';
import { hookTarget, json, runHook, SCRIPT } from './hook-script.test-support';

const INPUT = JSON.stringify({
  session_id: 's-1',
  cwd: '/home/dev/p',
  hook_event_name: 'BeforeTool',
  tool_name: 'run_shell_command',
  tool_input: { command: 'ls' },
});

const target = hookTarget();
const run = (argv: string[] | string, vars?: Record<string, string>) =>
  runHook(argv, INPUT, { shell: 'bash', ...(vars ? { vars } : {}) });

const url = () => `${target.base()}/api/hooks/gemini-cli?deadline=45`;

describe('gatehouse-hook.mjs passes Gatehouse’s decision to Gemini CLI', () => {
  it('posts the hook input unchanged with the bearer token, and prints the allow', async () => {
    target.reply = json(200, { decision: 'allow', reason: 'Allowed by rule r1' });
    const result = await run([url()]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ decision: 'allow', reason: 'Allowed by rule r1' });
    expect(target.seen).toEqual([
      { url: '/api/hooks/gemini-cli?deadline=45', authorization: 'Bearer tok-1', body: INPUT },
    ]);
  });

  it('prints a deny with its reason, and a person’s edit as tool_input', async () => {
    target.reply = json(200, { decision: 'deny', reason: 'no curl' });
    expect(JSON.parse((await run([url()])).stdout)).toEqual({ decision: 'deny', reason: 'no curl' });
    target.reply = json(200, {
      decision: 'allow',
      reason: 'ok',
      hookSpecificOutput: { tool_input: { command: 'ls -a' } },
    });
    expect(JSON.parse((await run([url()])).stdout)).toEqual({
      decision: 'allow',
      reason: 'ok',
      hookSpecificOutput: { tool_input: { command: 'ls -a' } },
    });
  });
});

describe('gatehouse-hook.mjs fails closed: exit 2 with the reason, nothing on stdout', () => {
  it.each([
    [
      'an error status (401)',
      json(401, { error: { code: 'unauthorized', message: 'A valid API token is required' } }),
      /answered 401: A valid API token is required/,
    ],
    ['a server error (500)', json(500, 'boom'), /answered 500: boom/],
    ['a 200 that is not JSON', json(200, '<html>proxy</html>'), /not JSON/],
    ['a decision that is neither allow nor deny', json(200, { decision: 'ask', reason: 'x' }), /decision is "ask"/],
    ['a JSON answer without a decision', json(200, { ok: true }), /decision is undefined/],
    [
      'a tool_input that is not an object',
      json(200, { decision: 'allow', hookSpecificOutput: { tool_input: 'rm' } }),
      /tool_input/,
    ],
  ])('on %s', async (_case, answer, reason) => {
    target.reply = answer;
    const result = await run([url()]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(reason);
  });

  it('when Gatehouse is unreachable', async () => {
    const result = await run(['http://127.0.0.1:9/api/hooks/gemini-cli']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/unreachable .*nothing runs without its decision/);
  });

  it('when Gatehouse does not answer within --timeout', async () => {
    target.reply = () => {}; // never answers
    const started = Date.now();
    const result = await run([url(), '--timeout', '0.3']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/no answer within 0.3 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('without a token, a URL, or with arguments it does not know', async () => {
    target.reply = json(200, { decision: 'allow', reason: 'x' });
    for (const [argv, env, reason] of [
      [[url()], {}, /GATEHOUSE_TOKEN is not set/],
      [[], { GATEHOUSE_TOKEN: 't' }, /no Gatehouse URL/],
      [['ftp://x/'], { GATEHOUSE_TOKEN: 't' }, /not an http\(s\) URL/],
      [[url(), '--deadline', '3'], { GATEHOUSE_TOKEN: 't' }, /unexpected arguments/],
    ] as const) {
      const result = await run([...argv], env);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(reason);
    }
    expect(target.seen).toEqual([]);
  });
});

describe('the generated settings command', () => {
  const command = (hookScript: string, baseUrl = target.base()) =>
    geminiCliHookSettings({ baseUrl, hookScript, deadlineS: 45 }).hooks.BeforeTool[0]!.hooks[0]!;

  it('runs the hook against /api/hooks/gemini-cli with the deadline, and outlives its give-up time', async () => {
    target.reply = json(200, { decision: 'allow', reason: 'ok' });
    const hook = command(SCRIPT);
    expect(hook.timeout).toBe(60_000); // the script gives up at 45 + 5 s
    expect(await run(hook.command)).toMatchObject({ code: 0 });
    expect(target.seen[0]?.url).toBe('/api/hooks/gemini-cli?deadline=45');
  });

  it('blocks (exit 2) when the script cannot even start', async () => {
    const result = await run(command('/nonexistent/gatehouse-hook.mjs').command);
    expect(result.code).toBe(2);
  });

  it('quotes a script path with spaces and quotes', () => {
    expect(command("/opt/my tools/it's.mjs", 'https://g.example.com/').command).toBe(
      `node '/opt/my tools/it'\\''s.mjs' 'https://g.example.com/api/hooks/gemini-cli?deadline=45' || exit 2`,
    );
  });

  it("is the block the README's Gemini CLI section shows", () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Gemini CLI'));
    const block = section.slice(section.indexOf('```json') + 7, section.indexOf('```', section.indexOf('```json') + 7));
    const built = geminiCliHookSettings({
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
