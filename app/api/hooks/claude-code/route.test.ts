// POST /api/hooks/claude-code: Claude Code's hook input in, its hook output out, one policy for
// both agents, a person deciding in Gatehouse while the request is held, and every failure a denial.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { mcpDeps } from '@/lib/server/mcp-server/runtime-deps';
import { approveAllPending } from '@/lib/server/runs/approve-all';
import { exposedToolsKey } from '@/lib/server/mcp-server/token-settings';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { expectEditRefused, pendingHookRelay, setPolicy } from '../hook-routes.test-support';
import { POST as hook } from './route';

const server = withRouteRuntime('gatehouse-hooks-');

const rules = [
  { action: 'allow', tool: 'bash', params: { command: 'ls **' } },
  { action: 'allow', tool: 'bash', params: { command: 'ls' } },
  { action: 'deny', tool: 'bash', params: { command: 'rm -rf **' }, description: 'no recursive deletes' },
  { action: 'deny', tool: 'read_file', params: { path: '**/.env' } },
  { action: 'deny', tool: 'read_file', params: { path: '~/.ssh/**' }, description: 'keys' },
  { action: 'ask', tool: 'bash', params: { command: 'npm publish **' } },
  { action: 'deny', tool: 'bash', agent: 'claude-code', params: { command: 'curl **' } },
];

let sessions = 0;
function input(tool_name: string, tool_input: unknown, extra: Record<string, unknown> = {}) {
  return {
    session_id: `cc-${++sessions}`,
    transcript_path: '/tmp/t.jsonl',
    cwd: '/home/dev/project',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name,
    tool_input,
    tool_use_id: `toolu_${sessions}`,
    ...extra,
  };
}

const call = (json: unknown, opts: { token?: string; query?: string; signal?: AbortSignal } = {}) => {
  const request = apiRequest('POST', `/api/hooks/claude-code${opts.query ?? ''}`, {
    json,
    ...(opts.token ? { token: opts.token } : {}),
  });
  return hook(opts.signal ? new Request(request, { signal: opts.signal }) : request, noParams);
};

/** The run the gate opened for a hook session (the first thing it records of a decision), if any. */
const hookRunOf = async (sessionId: string) =>
  (await server.rt().q.runs.listRuns({ source: 'hook' })).items.find((run) => run.externalId === sessionId);

const decisionOf = async (response: Response) => {
  expect(response.status).toBe(200);
  const body = await response.json();
  return body.hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
};

describe('POST /api/hooks/claude-code', () => {
  it('refuses an anonymous caller with 401', async () => {
    await setPolicy(rules);
    const response = await hook(
      new Request('http://127.0.0.1:3000/api/hooks/claude-code', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input('Bash', { command: 'ls' })),
      }),
      noParams,
    );
    expect(response.status).toBe(401);
  });

  it('answers PreToolUse allow for an allowed command, in Claude Code hook output format', async () => {
    const response = await call(input('Bash', { command: 'ls -la' }));
    expect(await response.clone().json()).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: expect.any(String),
      },
    });
  });

  it('denies with the reason, also a compound command hiding a denied part', async () => {
    const plain = await decisionOf(await call(input('Bash', { command: 'rm -rf build' })));
    expect(plain.permissionDecision).toBe('deny');
    expect(plain.permissionDecisionReason).toMatch(/recursive deletes|rm -rf/);
    const hidden = await decisionOf(await call(input('Bash', { command: 'ls && rm -fr /tmp/x' })));
    expect(hidden.permissionDecision).toBe('deny');
  });

  it('judges Read by the read_file rules with the path resolved against cwd, and rules that target claude-code', async () => {
    expect((await decisionOf(await call(input('Read', { file_path: '.env' })))).permissionDecision).toBe('deny');
    expect((await decisionOf(await call(input('Bash', { command: 'curl https://x.test' })))).permissionDecision).toBe(
      'deny',
    );
  });

  it('judges Grep by everything below the directory it searches: a deny rule beneath it applies', async () => {
    // Grep reads every file below its path, .env included; the same search as `grep -r` is denied too.
    const grep = await decisionOf(await call(input('Grep', { pattern: 'API_KEY', path: '/home/dev' })));
    expect(grep.permissionDecision).toBe('deny');
    const shell = await decisionOf(await call(input('Bash', { command: 'grep -r API_KEY /home/dev' })));
    expect(shell.permissionDecision).toBe('deny');
  });

  it("reads ~/ in a rule as the Claude Code user's home (from transcript_path), not the server's", async () => {
    const body = input(
      'Read',
      { file_path: '/home/alice/.ssh/id_ed25519' },
      {
        transcript_path: '/home/alice/.claude/projects/-home-alice-project/s.jsonl',
      },
    );
    expect((await decisionOf(await call(body, { query: '?ask=claude' }))).permissionDecision).toBe('deny');
  });

  it('denies a tool_input of the wrong shape, naming the field (Claude Code would otherwise go on)', async () => {
    const verdict = await decisionOf(await call(input('Bash', { command: 42 })));
    expect(verdict.permissionDecision).toBe('deny');
    expect(verdict.permissionDecisionReason).toContain('command');
  });

  it('answers 400 naming the field for an unknown event or a missing session, and for a body that is not JSON', async () => {
    const unknown = await call(input('Bash', { command: 'ls' }, { hook_event_name: 'PostToolUse' }));
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain('hook_event_name');
    const noSession = await call({ ...input('Bash', { command: 'ls' }), session_id: undefined });
    expect(noSession.status).toBe(400);
    const garbage = await hook(
      new Request('http://127.0.0.1:3000/api/hooks/claude-code', {
        method: 'POST',
        headers: { authorization: 'Bearer route-test-admin-token-0123456789', 'content-type': 'application/json' },
        body: '{"session_id": ',
      }),
      noParams,
    );
    expect(garbage.status).toBe(400);
  });

  it('never allows by accident: a NUL byte, an oversized body, an array body and an unknown tool', async () => {
    await setPolicy(rules);
    expect((await call(input('Bash', { command: 'ls\u0000; rm -rf /' }))).status).toBe(400);
    expect((await call(input('Bash', { command: 'ls '.repeat(1_000_000) }))).status).toBe(413);
    expect((await call([input('Bash', { command: 'ls' })])).status).toBe(400);
    const unknown = await decisionOf(await call(input('Teleport', { to: 'prod' }), { query: '?ask=claude' }));
    expect(unknown.permissionDecision).toBe('ask');
    const proto = await decisionOf(
      await call(input('Bash', JSON.parse('{"command":"rm -rf build","__proto__":{"command":"ls"}}'))),
    );
    expect(proto.permissionDecision).toBe('deny');
  });

  it('holds an asking call until a person approves it in Gatehouse, then allows', async () => {
    const body = input('Bash', { command: 'npm publish --dry-run' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    expect(relay.agentId).toBe('claude-code');
    expect(relay.request.params).toEqual({ command: 'npm publish --dry-run' });
    // The call as Claude Code sent it travels with the relay, for the approver.
    expect(relay.request.original).toEqual({ tool: 'Bash', input: { command: 'npm publish --dry-run' } });
    await server.rt().runs.decideChecked(relay.id, { approved: true }, 'someone');
    expect((await decisionOf(await answer)).permissionDecision).toBe('allow');
  });

  it("passes a person's deny reason to Claude", async () => {
    const body = input('Bash', { command: 'npm publish' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    await server.rt().runs.decideChecked(relay.id, { approved: false, reason: 'not on a Friday' }, 'someone');
    const verdict = await decisionOf(await answer);
    expect(verdict).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'not on a Friday' });
  });

  it('refuses, before storing it, an edit that changed more than the input Claude Code can take back (the path of Write)', async () => {
    await setPolicy(rules);
    const body = input('Write', { file_path: 'notes.txt', content: 'draft' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    // Claude Code would take the new content as updatedInput and write it to notes.txt, which nobody approved.
    await expectEditRefused(server, relay.id, { path: '/home/dev/project/other.txt', content: 'final' });
    expect((await decisionOf(await answer)).permissionDecision).toBe('deny');
  });

  it("judges an approver's edit where the CLI runs it: its cwd, and the home `~/` means", async () => {
    await setPolicy([
      ...rules,
      { action: 'deny', tool: 'read_file', params: { path: '/home/dev/project/secrets/**' } },
    ]);
    const { runs, q } = server.rt();
    for (const command of ['cat /home/dev/.ssh/id_rsa', 'cat secrets/key']) {
      const body = input(
        'Bash',
        { command: 'npm publish --dry-run' },
        { transcript_path: '/home/dev/.claude/projects/-home-dev-project/t.jsonl' },
      );
      const answer = call(body);
      const { relay } = await pendingHookRelay(server, body.session_id);
      await expect(
        runs.decideChecked(relay.id, { approved: true, params: { command } }, 'someone'),
      ).rejects.toMatchObject({ code: 'conflict:edit_denied', status: 409 });
      expect(await q.relays.getRelay({ id: relay.id })).toMatchObject({ status: 'pending' });
      await runs.decideChecked(relay.id, { approved: false }, 'someone');
      expect((await decisionOf(await answer)).permissionDecision).toBe('deny');
    }
  });

  it('a call an ask rule holds where it acts is never one that "approve all" settles', async () => {
    // Without the rules above: their deny of `**/.env` would deny the search outright.
    await setPolicy([
      { action: 'ask', tool: 'read_file', params: { path: '~/.aws/**' } },
      { action: 'ask', tool: 'read_file', params: { path: '/home/dev/project/private/**' } },
    ]);
    const { runs, q } = server.rt();
    const place = { transcript_path: '/home/dev/.claude/projects/-home-dev-project/t.jsonl' };
    for (const [tool, toolInput] of [
      ['Read', { file_path: '/home/dev/.aws/credentials' }],
      ['Grep', { pattern: 'token', path: '/home/dev/project' }],
    ] as const) {
      const body = input(tool, toolInput, place);
      const answer = call(body);
      const { relay } = await pendingHookRelay(server, body.session_id);
      expect(relay.request.autoApprove).toBe(false);
      const result = await approveAllPending(runs, q, relay.runId, 'someone');
      expect(result.left).toEqual([relay.id]);
      expect(await q.relays.getRelay({ id: relay.id })).toMatchObject({ status: 'pending' });
      await runs.decideChecked(relay.id, { approved: false }, 'someone');
      expect((await decisionOf(await answer)).permissionDecision).toBe('deny');
    }
  });

  it('answers deny "Approval timeout" at the deadline given in the URL', async () => {
    const verdict = await decisionOf(await call(input('Bash', { command: 'npm publish x' }), { query: '?deadline=1' }));
    expect(verdict).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: 'Approval timeout' });
  });

  it('cancels the relay, audited so, when the request ends before a decision', async () => {
    const body = input('Bash', { command: 'npm publish y' });
    const controller = new AbortController();
    const answer = call(body, { signal: controller.signal }).catch(() => undefined);
    const { relay } = await pendingHookRelay(server, body.session_id);
    controller.abort();
    await answer;
    const { q } = server.rt();
    for (let i = 0; i < 200 && (await q.relays.getRelay({ id: relay.id }))?.status === 'pending'; i++)
      await new Promise((r) => setTimeout(r, 25));
    const row = await q.relays.getRelay({ id: relay.id });
    expect(row).toMatchObject({ status: 'cancelled', reason: 'The agent stopped waiting for the decision' });
  });

  it("lets calls to Gatehouse's own MCP server through (it gates them itself), and only those", async () => {
    const ownBody = input('mcp__gatehouse__bash', { command: 'rm -rf x' });
    const own = await decisionOf(await call(ownBody, { query: '?mcp=gatehouse&ask=claude' }));
    expect(own).toMatchObject({
      permissionDecision: 'allow',
      permissionDecisionReason: "Gatehouse's MCP server decides this call itself (asked once)",
    });
    expect(await hookRunOf(ownBody.session_id)).toBeUndefined();
    const other = await decisionOf(
      await call(input('mcp__gatehousex__bash', { command: 'rm -rf x' }), { query: '?mcp=gatehouse&ask=claude' }),
    );
    expect(other.permissionDecision).not.toBe('allow');
    expect((await call(input('Bash', { command: 'ls' }), { query: '?mcp=../x' })).status).toBe(400);
  });

  it("hands an ask back to Claude Code's own prompt only when configured to", async () => {
    const verdict = await decisionOf(await call(input('Bash', { command: 'npm publish z' }), { query: '?ask=claude' }));
    expect(verdict.permissionDecision).toBe('ask');
  });

  it('never hands back a call whose rule names its approvers: it waits for them in Gatehouse (decision 0047)', async () => {
    await setPolicy([
      { action: 'ask', tool: 'bash', params: { command: 'deploy **' }, approvals: { count: 1, roles: ['admin'] } },
      ...rules,
    ]);
    const body = input('Bash', { command: 'deploy prod' });
    const controller = new AbortController();
    const held = call(body, { query: '?ask=claude', signal: controller.signal });
    const { relay } = await pendingHookRelay(server, body.session_id);
    expect(relay.request.approvals).toEqual({ count: 1, roles: ['admin'] });
    controller.abort();
    await held.catch(() => undefined);
  });

  it('answers PermissionRequest with its decision shape', async () => {
    const allowed = await call(input('Bash', { command: 'ls' }, { hook_event_name: 'PermissionRequest' }));
    expect(await allowed.json()).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    const denied = await call(input('Bash', { command: 'rm -rf x' }, { hook_event_name: 'PermissionRequest' }));
    expect(await denied.json()).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: expect.any(String) },
      },
    });
  });

  it("Always Allow makes the next similar call of that session silent, and never another user's session with the same id", async () => {
    // Asked by the default action (an ask rule would ask whatever is granted).
    const body = input('Bash', { command: 'touch notes.txt' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    await server.rt().runs.decideChecked(relay.id, { approved: true, always: true }, 'someone');
    expect((await decisionOf(await answer)).permissionDecision).toBe('allow');
    const again = await decisionOf(await call({ ...body, tool_use_id: 'toolu_again' }, { query: '?ask=claude' }));
    expect(again.permissionDecision).toBe('allow');
    const other = await server.tokenFor('user');
    const theirs = await decisionOf(
      await call({ ...body, tool_use_id: 'toolu_theirs' }, { token: other, query: '?ask=claude' }),
    );
    expect(theirs.permissionDecision).toBe('ask');
  });
});

describe("?mcp=<name> lets through only the tools Gatehouse's /api/mcp serves to the hook's token", () => {
  const query = '?mcp=gatehouse&ask=claude';

  it('decides a name /api/mcp does not serve through the gate: denied by a deny default, asked by an ask default', async () => {
    await setPolicy(rules, 'deny');
    const denied = input('mcp__gatehouse__unknown_tool', { anything: 1 });
    expect((await decisionOf(await call(denied, { query }))).permissionDecision).toBe('deny');
    expect(await hookRunOf(denied.session_id)).toBeDefined();
    await setPolicy(rules, 'ask');
    const asked = input('mcp__gatehouse__unknown_tool', { anything: 1 });
    expect((await decisionOf(await call(asked, { query }))).permissionDecision).toBe('ask');
    expect(await hookRunOf(asked.session_id)).toBeDefined();
  });

  it("is judged by the policy's rules for the full mcp__ name, as any other MCP tool the hook maps", async () => {
    await setPolicy([...rules, { action: 'deny', tool: 'mcp__gatehouse__*', description: 'not served here' }]);
    const verdict = await decisionOf(await call(input('mcp__gatehouse__exfiltrate', { to: 'x' }), { query }));
    expect(verdict).toMatchObject({ permissionDecision: 'deny' });
    expect(verdict.permissionDecisionReason).toContain('not served here');
    // A served name is still /api/mcp's to decide: the same rule does not reach it here.
    const served = await decisionOf(await call(input('mcp__gatehouse__bash', { command: 'ls' }), { query }));
    expect(served.permissionDecision).toBe('allow');
    await setPolicy(rules);
  });

  it("decides a tool the token's choice of tools hides through the gate, and lets through one it shows", async () => {
    await setPolicy(rules);
    const { user, token } = await server.person('user');
    const { q } = server.rt();
    const [mine] = await q.tokens.listApiTokens({ userId: user.id });
    await q.settings.putSetting({ key: exposedToolsKey(mine!.id), value: JSON.stringify(['read_file']) });
    const shown = input('mcp__gatehouse__read_file', { path: 'a.txt' });
    expect((await decisionOf(await call(shown, { token, query }))).permissionDecision).toBe('allow');
    expect(await hookRunOf(shown.session_id)).toBeUndefined();
    const hidden = input('mcp__gatehouse__bash', { command: 'rm -rf x' });
    expect((await decisionOf(await call(hidden, { token, query }))).permissionDecision).toBe('ask');
    expect(await hookRunOf(hidden.session_id)).toBeDefined();
  });

  it('decides through the gate when what /api/mcp serves cannot be read', async () => {
    await setPolicy(rules);
    const lookup = vi.spyOn(mcpDeps(server.rt()), 'tools').mockRejectedValue(new Error('tools unreadable'));
    try {
      const body = input('mcp__gatehouse__bash', { command: 'rm -rf x' });
      expect((await decisionOf(await call(body, { query }))).permissionDecision).toBe('ask');
      expect(lookup).toHaveBeenCalled();
      expect(await hookRunOf(body.session_id)).toBeDefined();
    } finally {
      lookup.mockRestore();
    }
  });
});

describe('the hook inputs the real Claude Code 2.1.328 sends (lib/server/hooks/fixtures)', () => {
  const folder = path.join(process.cwd(), 'lib/server/hooks/fixtures');
  const fixtures = readdirSync(folder).filter((name) => name.endsWith('.json'));

  it.each(fixtures)("%s is read and answered in its event's output shape", async (name) => {
    await setPolicy(rules);
    const body = JSON.parse(readFileSync(path.join(folder, name), 'utf8'));
    const response = await call(body, { query: '?ask=claude' });
    expect(response.status).toBe(200);
    const output = await response.json();
    if (body.hook_event_name === 'PreToolUse')
      expect(output.hookSpecificOutput).toMatchObject({
        hookEventName: 'PreToolUse',
        permissionDecision: expect.stringMatching(/^(allow|deny|ask)$/),
      });
    // PermissionRequest: a decision, or none (an ask handed back to Claude Code's own prompt).
    else expect(output.hookSpecificOutput?.hookEventName ?? 'PermissionRequest').toBe('PermissionRequest');
  });
});

describe('a rule that needs two approvers holds a Claude Code call until both approved', () => {
  it('stays pending after the first approval and allows after the second', async () => {
    const quorum = { action: 'ask', tool: 'bash', params: { command: 'deploy **' }, approvals: { count: 2 } };
    await setPolicy([...rules, quorum]);
    const body = input('Bash', { command: 'deploy prod' });
    const answer = call(body);
    const { relay } = await pendingHookRelay(server, body.session_id);
    expect(relay.request.approvals).toEqual({ count: 2 });
    const { broker } = server.rt();
    expect(await broker.decide(relay.id, { approved: true }, { user: 'first', role: 'approver' })).toMatchObject({
      status: 'partial',
    });
    expect((await server.rt().q.relays.getRelay({ id: relay.id }))?.status).toBe('pending');
    await broker.decide(relay.id, { approved: true }, { user: 'second', role: 'admin' });
    expect((await decisionOf(await answer)).permissionDecision).toBe('allow');
  });
});
