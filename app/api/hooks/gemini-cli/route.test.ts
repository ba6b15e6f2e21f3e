// POST /api/hooks/gemini-cli: Gemini CLI's BeforeTool input in, its hook output out, one policy for
// every agent, a person deciding in Gatehouse while the request is held, and every failure a denial.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { expectEditRefused, pendingHookRelay, setPolicy } from '../hook-routes.test-support';
import { POST as hook } from './route';

const server = withRouteRuntime('gatehouse-gemini-hook-');

const rules = [
  { action: 'allow', tool: 'bash', params: { command: 'ls **' } },
  { action: 'allow', tool: 'bash', params: { command: 'ls' } },
  { action: 'deny', tool: 'bash', params: { command: 'rm -rf **' }, description: 'no recursive deletes' },
  { action: 'deny', tool: 'read_file', params: { path: '**/.env' } },
  { action: 'deny', tool: 'read_file', params: { path: '~/.ssh/**' }, description: 'keys' },
  { action: 'allow', tool: 'list_files', params: { path: '/home/dev/project/**' } },
  { action: 'ask', tool: 'bash', params: { command: 'npm publish **' } },
  { action: 'deny', tool: 'bash', agent: 'gemini-cli', params: { command: 'curl **' } },
];

let sessions = 0;
function input(tool_name: string, tool_input: unknown, extra: Record<string, unknown> = {}) {
  return {
    session_id: `gm-${++sessions}`,
    transcript_path: '/home/dev/.gemini/tmp/project/chats/session-1.jsonl',
    cwd: '/home/dev/project',
    hook_event_name: 'BeforeTool',
    timestamp: '2026-11-24T21:12:35.727Z',
    tool_name,
    tool_input,
    ...extra,
  };
}

const call = (json: unknown, opts: { token?: string; query?: string } = {}) =>
  hook(
    apiRequest('POST', `/api/hooks/gemini-cli${opts.query ?? ''}`, {
      json,
      ...(opts.token ? { token: opts.token } : {}),
    }),
    noParams,
  );

const verdictOf = async (response: Response) => {
  expect(response.status).toBe(200);
  return (await response.json()) as { decision: string; reason: string; hookSpecificOutput?: unknown };
};

describe('POST /api/hooks/gemini-cli', () => {
  it('refuses an anonymous caller with 401', async () => {
    await setPolicy(rules);
    const response = await hook(
      new Request('http://127.0.0.1:3000/api/hooks/gemini-cli', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input('run_shell_command', { command: 'ls' })),
      }),
      noParams,
    );
    expect(response.status).toBe(401);
  });

  it('answers allow for an allowed command, in Gemini CLI hook output format', async () => {
    expect(await (await call(input('run_shell_command', { command: 'ls -la' }))).json()).toEqual({
      decision: 'allow',
      reason: expect.any(String),
    });
  });

  it('denies with the reason, also a compound command hiding a denied part', async () => {
    const plain = await verdictOf(await call(input('run_shell_command', { command: 'rm -rf build' })));
    expect(plain).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/recursive deletes|rm -rf/) });
    const hidden = await verdictOf(await call(input('run_shell_command', { command: 'ls && rm -fr /tmp/x' })));
    expect(hidden.decision).toBe('deny');
  });

  it('judges file tools by the path rules with the path resolved against cwd, and rules that target gemini-cli', async () => {
    expect((await verdictOf(await call(input('read_file', { file_path: '.env' })))).decision).toBe('deny');
    expect((await verdictOf(await call(input('list_directory', { dir_path: 'src' })))).decision).toBe('allow');
    const curl = await verdictOf(await call(input('run_shell_command', { command: 'curl https://x.test' })));
    expect(curl.decision).toBe('deny');
  });

  it("reads ~/ in a rule as the Gemini CLI user's home (from transcript_path), not the server's", async () => {
    const body = input(
      'read_file',
      { file_path: '/home/alice/.ssh/id_ed25519' },
      { transcript_path: '/home/alice/.gemini/tmp/project/chats/s.jsonl' },
    );
    expect(await verdictOf(await call(body))).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('keys'),
    });
  });

  it("judges a shell command's relative paths in the directory it runs in (dir_path), not the hook's cwd", async () => {
    await setPolicy([
      ...rules,
      { action: 'allow', tool: 'bash', params: { command: 'cat **' } },
      { action: 'deny', tool: 'read_file', params: { path: '/home/dev/secrets/**' }, description: 'secrets' },
    ]);
    // Gemini CLI runs the command in dir_path: this cat reads /home/dev/secrets/key.pem.
    const verdict = await verdictOf(
      await call(input('run_shell_command', { command: 'cat key.pem', dir_path: '/home/dev/secrets' })),
    );
    expect(verdict.decision).toBe('deny');
    await setPolicy(rules);
  });

  it('judges a search of a directory by everything below it: a deny rule beneath it applies', async () => {
    await setPolicy([
      { action: 'deny', tool: 'read_file', params: { path: '/home/dev/secrets/**' }, description: 'secrets' },
      { action: 'deny', tool: 'list_files', params: { path: '**/.ssh/**' }, description: 'keys' },
      { action: 'allow', tool: 'read_file' },
      { action: 'allow', tool: 'list_files' },
    ]);
    // grep_search reads every file below dir_path: /home/dev/secrets/key.pem included.
    const grep = await verdictOf(await call(input('grep_search', { pattern: 'KEY', dir_path: '/home/dev' })));
    expect(grep).toMatchObject({ decision: 'deny', reason: expect.stringContaining('secrets') });
    const glob = await verdictOf(await call(input('glob', { pattern: '*', dir_path: '/home/dev' })));
    expect(glob).toMatchObject({ decision: 'deny', reason: expect.stringContaining('keys') });
    // A search beside the denied folder is still allowed; a rule for any .env reaches every folder.
    const beside = await verdictOf(await call(input('grep_search', { pattern: 'KEY', dir_path: '/home/dev/project' })));
    expect(beside.decision).toBe('allow');
    await setPolicy(rules);
    const anyEnv = await verdictOf(await call(input('grep_search', { pattern: 'KEY', dir_path: '/home/dev/project' })));
    expect(anyEnv).toMatchObject({ decision: 'deny', reason: expect.stringContaining('.env') });
    await setPolicy(rules);
  });

  it('denies a tool_input of the wrong shape, naming the field (Gemini CLI would otherwise go on)', async () => {
    const verdict = await verdictOf(await call(input('run_shell_command', { command: 42 })));
    expect(verdict).toMatchObject({ decision: 'deny', reason: expect.stringContaining('tool_input.command') });
  });

  it('answers 400 naming the field for another event or a missing session, and for a body that is not JSON', async () => {
    const other = await call(input('run_shell_command', { command: 'ls' }, { hook_event_name: 'AfterTool' }));
    expect(other.status).toBe(400);
    expect(JSON.stringify(await other.json())).toContain('hook_event_name');
    const noSession = await call({ ...input('run_shell_command', { command: 'ls' }), session_id: undefined });
    expect(noSession.status).toBe(400);
    expect(JSON.stringify(await noSession.json())).toContain('session_id');
    const garbage = await hook(
      new Request('http://127.0.0.1:3000/api/hooks/gemini-cli', {
        method: 'POST',
        headers: { authorization: 'Bearer route-test-admin-token-0123456789', 'content-type': 'application/json' },
        body: '{"session_id": ',
      }),
      noParams,
    );
    expect(garbage.status).toBe(400);
    expect((await call(input('run_shell_command', { command: 'ls' }), { query: '?deadline=0' })).status).toBe(400);
  });

  it('never allows by accident: a NUL byte, an oversized body, an array body, a __proto__ trick', async () => {
    expect((await call(input('run_shell_command', { command: 'ls\u0000; rm -rf /' }))).status).toBe(400);
    expect((await call(input('run_shell_command', { command: 'ls '.repeat(1_000_000) }))).status).toBe(413);
    expect((await call([input('run_shell_command', { command: 'ls' })])).status).toBe(400);
    const proto = await verdictOf(
      await call(input('run_shell_command', JSON.parse('{"command":"rm -rf build","__proto__":{"command":"ls"}}'))),
    );
    expect(proto.decision).toBe('deny');
  });

  it('holds an asking call (an unknown tool too) until a person approves it in Gatehouse, then allows', async () => {
    const body = input('mcp_github_create_issue', { title: 'x' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    expect(relay.agentId).toBe('gemini-cli');
    expect(relay.request.params).toEqual({ title: 'x' });
    await server.rt().runs.decideChecked(relay.id, { approved: true }, 'someone');
    expect((await verdictOf(await answer)).decision).toBe('allow');
  });

  it("passes a person's deny reason to the model", async () => {
    const body = input('run_shell_command', { command: 'npm publish' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    await server.rt().runs.decideChecked(relay.id, { approved: false, reason: 'not on a Friday' }, 'someone');
    expect(await verdictOf(await answer)).toEqual({ decision: 'deny', reason: 'not on a Friday' });
  });

  it("hands a person's edit of the command back as tool_input, merged over the model's arguments", async () => {
    const body = input('run_shell_command', { command: 'npm publish --tag next', description: 'publish' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    const edited = { approved: true, params: { command: 'npm publish --dry-run' } };
    await server.rt().runs.decideChecked(relay.id, edited, 'someone');
    expect(await verdictOf(await answer)).toMatchObject({
      decision: 'allow',
      hookSpecificOutput: { tool_input: { command: 'npm publish --dry-run' } },
    });
  });

  it('refuses, before storing it, an edit that changed more than the tool_input Gemini CLI can take back (the path of write_file)', async () => {
    const body = input('write_file', { file_path: 'notes.txt', content: 'draft' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    // Gemini CLI would merge only `content` and write it to notes.txt, which nobody approved.
    await expectEditRefused(server, relay.id, { path: '/home/dev/project/other.txt', content: 'final' });
    expect(await verdictOf(await answer)).toMatchObject({ decision: 'deny' });
  });

  it("hands back an edit of write_file's content alone", async () => {
    const body = input('write_file', { file_path: 'notes.txt', content: 'draft' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    const edited = { approved: true, params: { path: '/home/dev/project/notes.txt', content: 'final' } };
    await server.rt().runs.decideChecked(relay.id, edited, 'someone');
    expect(await verdictOf(await answer)).toMatchObject({
      decision: 'allow',
      hookSpecificOutput: { tool_input: { content: 'final' } },
    });
  });

  it('refuses an edit that drops the cd to the dir_path the command runs in (it was judged there)', async () => {
    const body = input('run_shell_command', { command: 'npm publish', dir_path: 'pkg' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    expect(relay.request.params).toEqual({ command: "cd '/home/dev/project/pkg' && npm publish" });
    await expectEditRefused(server, relay.id, { command: 'npm publish --dry-run' });
    expect(await verdictOf(await answer)).toMatchObject({ decision: 'deny' });
  });

  it('answers deny "Approval timeout" at the deadline given in the URL', async () => {
    const verdict = await verdictOf(
      await call(input('run_shell_command', { command: 'npm publish x' }), { query: '?deadline=1' }),
    );
    expect(verdict).toEqual({ decision: 'deny', reason: 'Approval timeout' });
  });
});

describe('the hook inputs the real Gemini CLI 0.61.0 sends (lib/server/hooks/fixtures/gemini-cli)', () => {
  const folder = path.join(process.cwd(), 'lib/server/hooks/fixtures/gemini-cli');
  const fixtures = readdirSync(folder).filter((name) => name.endsWith('.json'));

  it.each(fixtures)('%s is read and answered in the hook output format', async (name) => {
    // Default deny: each is decided at once (what it asks about is pinned above).
    await setPolicy(rules, 'deny');
    const body = JSON.parse(readFileSync(path.join(folder, name), 'utf8'));
    const verdict = await verdictOf(await call(body));
    expect(verdict).toEqual({ decision: expect.stringMatching(/^(allow|deny)$/), reason: expect.any(String) });
  });
});
