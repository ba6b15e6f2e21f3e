// Inputs of the coding-CLI hook endpoints that an attacker (a user or agent token, a malicious
// repository, a prompt-injected model) can choose: a path the CLI reads as another file than a
// plain resolve would (`~/...`, white space around it) is refused; a tool name too long to record
// is a 400; look-alike names and fields are not guessed.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { setPolicy } from './hook-routes.test-support';
import { POST as claudeHook } from './claude-code/route';
import { POST as geminiHook } from './gemini-cli/route';
import { POST as codexHook } from './codex/route';
import { POST as decideRoute } from './decide/route';

const server = withRouteRuntime('gatehouse-hook-attack-');

// The built-in policy's shape: reads inside the workspace are allowed, keys are denied.
const rules = [
  { action: 'deny', tool: 'read_file', params: { path: '~/.ssh/**' }, description: 'keys' },
  { action: 'deny', tool: 'read_file', params: { path: '**/.env' }, description: 'secrets' },
  { action: 'allow', tool: 'read_file', params: { path: '**' }, description: 'workspace reads' },
];

const HOME = '/home/dev';
let sessions = 0;
function claudeInput(tool_name: string, tool_input: unknown, extra: Record<string, unknown> = {}) {
  const id = ++sessions;
  return {
    session_id: `attack-${id}`,
    transcript_path: `${HOME}/.claude/projects/-home-dev-project/attack-${id}.jsonl`,
    cwd: `${HOME}/project`,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name,
    tool_input,
    tool_use_id: `toolu_attack_${id}`,
    ...extra,
  };
}

async function claudeDecision(body: unknown, query = '') {
  const response = await claudeHook(apiRequest('POST', `/api/hooks/claude-code${query}`, { json: body }), noParams);
  expect(response.status).toBe(200);
  const json = await response.json();
  return json.hookSpecificOutput?.permissionDecision as string | undefined;
}

describe('Claude Code paths are judged where Claude Code reads them', () => {
  // Claude Code 2.1.328's expandPath (the one its file tools resolve `file_path` with) reads
  // `~` and `~/…` as the user's home; resolved against cwd it would be `<cwd>/~/.ssh/id_rsa`,
  // which the deny rule on `~/.ssh/**` never sees and the workspace read rule allows. Refused.
  it('a Read of ~/.ssh/id_rsa is denied, never allowed as a workspace read', async () => {
    await setPolicy(rules);
    expect(await claudeDecision(claudeInput('Read', { file_path: `${HOME}/.ssh/id_rsa` }))).toBe('deny');
    expect(await claudeDecision(claudeInput('Read', { file_path: '~/.ssh/id_rsa' }))).toBe('deny');
  });

  // The same expandPath trims the path first: ` /home/dev/.ssh/id_rsa` is /home/dev/.ssh/id_rsa to
  // Claude Code, but a relative path (`<cwd>/ /home/dev/...`, inside the workspace) to a plain
  // resolve; a trailing space would hide `.env` from `**/.env`. Refused.
  it('a Read path with white space around it is denied', async () => {
    await setPolicy(rules);
    expect(await claudeDecision(claudeInput('Read', { file_path: ` ${HOME}/.ssh/id_rsa` }))).toBe('deny');
    expect(await claudeDecision(claudeInput('Read', { file_path: `${HOME}/project/.env ` }))).toBe('deny');
  });
});

describe("POST /api/hooks/decide: `~/` is the agent user's home when the caller names it", () => {
  const decide = (json: unknown) => decideRoute(apiRequest('POST', '/api/hooks/decide', { json }), noParams);
  const read = { tool: 'read_file', params: { path: `${HOME}/.ssh/id_rsa` }, cwd: `${HOME}/project`, wait: false };

  it('denies a read of the home named by `home` under a rule on ~/.ssh/**', async () => {
    await setPolicy(rules);
    const response = await decide({ ...read, home: HOME });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ decision: 'deny' });
  });

  it('refuses a `home` that is not absolute with a 400 naming the field', async () => {
    const response = await decide({ ...read, home: 'home/dev' });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('home');
  });
});

describe('every decision a hook answers is stored', () => {
  // The tool name is stored in audit.tool, which has a b-tree index (audit_tool_idx): a name
  // longer than an index row may hold (~2.7 kB, incompressible) would make the record unstorable
  // after the hook was answered (on PGlite the decision is answered first). tool_name is capped
  // at 200 characters, as POST /api/hooks/decide's `tool`.
  const longName = `mcp__x__${randomBytes(3000).toString('base64')}`;

  async function auditOfSession(sessionId: string) {
    const { q, external } = server.rt();
    await external.flushRecords();
    const runs = await q.runs.listRuns({ source: 'hook' });
    const run = runs.items.find((r) => r.externalId === sessionId);
    if (!run) return { run: undefined, audit: [] };
    const audit = await q.audit.listAudit({ runId: run.id });
    return { run, audit: audit.items };
  }

  it.each([
    ['claude-code', claudeHook, (session_id: string) => ({ ...claudeInput(longName, { x: 1 }), session_id })],
    [
      'gemini-cli',
      geminiHook,
      (session_id: string) => ({
        session_id,
        cwd: `${HOME}/project`,
        hook_event_name: 'BeforeTool',
        tool_name: longName,
        tool_input: { x: 1 },
      }),
    ],
    [
      'codex',
      codexHook,
      (session_id: string) => ({
        session_id,
        cwd: `${HOME}/project`,
        hook_event_name: 'PreToolUse',
        tool_name: longName,
        tool_input: { x: 1 },
      }),
    ],
  ] as const)('%s: a call with a 4 kB tool_name is a 400 naming it, before any decision', async (name, route, body) => {
    await setPolicy(rules);
    const session_id = `long-name-${name}-${++sessions}`;
    const response = await route(apiRequest('POST', `/api/hooks/${name}`, { json: body(session_id) }), noParams);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('tool_name');
    // Nothing was decided, so nothing is left to record.
    expect((await auditOfSession(session_id)).run).toBeUndefined();
  });
});
