// POST /api/hooks/codex: Codex CLI's PreToolUse input in, its hook output out, one policy for every
// agent, a person deciding in Gatehouse while the request is held, and every failure a denial.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { expectEditRefused, pendingHookRelay, setPolicy } from '../hook-routes.test-support';
import { POST as hook } from './route';

const server = withRouteRuntime('gatehouse-codex-hook-');

const rules = [
  { action: 'allow', tool: 'bash', params: { command: 'ls **' } },
  { action: 'allow', tool: 'bash', params: { command: 'ls' } },
  { action: 'deny', tool: 'bash', params: { command: 'rm -rf **' }, description: 'no recursive deletes' },
  { action: 'allow', tool: 'write_file', params: { path: '/home/dev/project/**' } },
  { action: 'allow', tool: 'edit_file', params: { path: '/home/dev/project/**' } },
  { action: 'deny', tool: 'write_file', params: { path: '**/.env' }, description: 'no secrets' },
  { action: 'ask', tool: 'bash', params: { command: 'npm publish **' } },
  { action: 'deny', tool: 'bash', agent: 'codex', params: { command: 'curl **' } },
];

let sessions = 0;
function input(tool_name: string, tool_input: unknown, extra: Record<string, unknown> = {}) {
  return {
    session_id: `cx-${++sessions}`,
    turn_id: 't-1',
    transcript_path: '/home/dev/.codex/sessions/2026/11/24/rollout-x.jsonl',
    cwd: '/home/dev/project',
    hook_event_name: 'PreToolUse',
    model: 'gpt-5.5',
    permission_mode: 'bypassPermissions',
    tool_name,
    tool_input,
    tool_use_id: 'call_1',
    ...extra,
  };
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

const call = (json: unknown, opts: { token?: string; query?: string } = {}) =>
  hook(
    apiRequest('POST', `/api/hooks/codex${opts.query ?? ''}`, { json, ...(opts.token ? { token: opts.token } : {}) }),
    noParams,
  );

const ALLOW = { hookSpecificOutput: { hookEventName: 'PreToolUse' } };
const deny = (reason: unknown) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
});

async function outputOf(response: Response) {
  expect(response.status).toBe(200);
  return (await response.json()) as { hookSpecificOutput: Record<string, unknown> };
}
const decisionOf = async (response: Response) =>
  (await outputOf(response)).hookSpecificOutput.permissionDecision === 'deny' ? 'deny' : 'allow';

describe('POST /api/hooks/codex', () => {
  it('refuses an anonymous caller with 401', async () => {
    await setPolicy(rules);
    const response = await hook(
      new Request('http://127.0.0.1:3000/api/hooks/codex', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input('Bash', { command: 'ls' })),
      }),
      noParams,
    );
    expect(response.status).toBe(401);
  });

  it('answers an allowed command with the PreToolUse output that carries no decision (Codex runs it)', async () => {
    expect(await outputOf(await call(input('Bash', { command: 'ls -la' })))).toEqual(ALLOW);
  });

  it('denies with the reason in permissionDecisionReason, also a compound command hiding a denied part', async () => {
    expect(await outputOf(await call(input('Bash', { command: 'rm -rf build' })))).toEqual(
      deny(expect.stringMatching(/recursive deletes|rm -rf/)),
    );
    expect(await decisionOf(await call(input('Bash', { command: ['bash', '-lc', 'ls && rm -fr /tmp/x'] })))).toBe(
      'deny',
    );
    expect(await decisionOf(await call(input('Bash', { command: 'curl https://x.test' })))).toBe('deny');
  });

  it('allows a patch only when every file it touches is allowed', async () => {
    const inside = patch('*** Add File: a.md', '+x', '*** Update File: src/b.ts', '@@', '-a', '+b');
    expect(await decisionOf(await call(input('apply_patch', { command: inside })))).toBe('allow');
    const secret = patch('*** Update File: src/b.ts', '@@', '-a', '+b', '*** Add File: .env', '+KEY=1');
    expect(await outputOf(await call(input('apply_patch', { command: secret })))).toEqual(
      deny(expect.stringContaining('no secrets')),
    );
  });

  it('denies a tool_input of the wrong shape or a patch it cannot read, naming the field', async () => {
    expect(await outputOf(await call(input('Bash', { command: 42 })))).toEqual(
      deny(expect.stringContaining('tool_input.command')),
    );
    expect(await outputOf(await call(input('apply_patch', { command: '*** Add File: x\n+y' })))).toEqual(
      deny(expect.stringContaining('*** Begin Patch')),
    );
  });

  it('answers 400 naming the field for another event or a missing session, and for a body that is not JSON', async () => {
    const other = await call(input('Bash', { command: 'ls' }, { hook_event_name: 'PostToolUse' }));
    expect(other.status).toBe(400);
    expect(JSON.stringify(await other.json())).toContain('hook_event_name');
    const noSession = await call({ ...input('Bash', { command: 'ls' }), session_id: undefined });
    expect(noSession.status).toBe(400);
    expect(JSON.stringify(await noSession.json())).toContain('session_id');
    const garbage = await hook(
      new Request('http://127.0.0.1:3000/api/hooks/codex', {
        method: 'POST',
        headers: { authorization: 'Bearer route-test-admin-token-0123456789', 'content-type': 'application/json' },
        body: '{"session_id": ',
      }),
      noParams,
    );
    expect(garbage.status).toBe(400);
    expect((await call(input('Bash', { command: 'ls' }), { query: '?deadline=0' })).status).toBe(400);
  });

  it('never allows by accident: a NUL byte, an array body, a __proto__ trick', async () => {
    expect((await call(input('Bash', { command: 'ls\u0000; rm -rf /' }))).status).toBe(400);
    expect((await call([input('Bash', { command: 'ls' })])).status).toBe(400);
    const proto = await call(input('Bash', JSON.parse('{"command":"rm -rf build","__proto__":{"command":"ls"}}')));
    expect(await decisionOf(proto)).toBe('deny');
  });

  it('holds an asking call (an MCP tool too) until a person approves it in Gatehouse, then allows', async () => {
    const body = input('mcp__github__create_issue', { title: 'x' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    expect(relay.agentId).toBe('codex');
    expect(relay.request.params).toEqual({ title: 'x' });
    await server.rt().runs.decideChecked(relay.id, { approved: true }, 'someone');
    expect(await outputOf(await answer)).toEqual(ALLOW);
  });

  it("passes a person's deny reason to the model, and refuses an edit (Codex takes none back)", async () => {
    const denied = input('Bash', { command: 'npm publish' });
    const answer = call(denied);
    const { relay } = await pendingHookRelay(server, denied.session_id);
    await server.rt().runs.decideChecked(relay.id, { approved: false, reason: 'not on a Friday' }, 'someone');
    expect(await outputOf(await answer)).toEqual(deny('not on a Friday'));

    const edited = input('Bash', { command: 'npm publish --tag next' });
    const held = call(edited);
    const pending = await pendingHookRelay(server, edited.session_id);
    await expectEditRefused(server, pending.relay.id, { command: 'npm publish --dry-run' });
    expect(await outputOf(await held)).toEqual(deny('the edit cannot run'));
  });

  it('answers deny "Approval timeout" at the deadline given in the URL', async () => {
    const response = await call(input('Bash', { command: 'npm publish x' }), { query: '?deadline=1' });
    expect(await outputOf(response)).toEqual(deny('Approval timeout'));
  });
});

describe('the hook inputs the real Codex CLI 0.169.0 sends (lib/server/hooks/fixtures/codex)', () => {
  const folder = path.join(process.cwd(), 'lib/server/hooks/fixtures/codex');
  const fixtures = readdirSync(folder).filter((name) => name.endsWith('.json'));

  it.each(fixtures)('%s is read and answered in the hook output format', async (name) => {
    await setPolicy(rules, 'deny');
    const body = JSON.parse(readFileSync(path.join(folder, name), 'utf8'));
    expect((await outputOf(await call(body))).hookSpecificOutput.hookEventName).toBe('PreToolUse');
  });
});
