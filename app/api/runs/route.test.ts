// GET /api/runs?source=hook lists the sessions of outside agents (the Connect page's "connected
// sessions": Claude Code's and Gemini CLI's alike), and nothing else; an unknown source is a 400
// naming the field.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runs } from '@/lib/db/schema';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST as claudeCodeHook } from '@/app/api/hooks/claude-code/route';
import { POST as geminiCliHook } from '@/app/api/hooks/gemini-cli/route';
import { GET } from './route';

const server = withRouteRuntime();

describe('GET /api/runs filters by source', () => {
  it('source=hook lists only hook runs; without it every run', async () => {
    const { q, database } = server.rt();
    const owner = (await q.users.getUserByUsername({ username: 'admin' }))?.id;
    await q.runs.createRun({ id: 'agent-run', sessionId: 's-agent', title: 'chat', owner });
    await q.runs.createRun({ id: 'hook-run', sessionId: 's-hook', title: '/home/ann/project', owner });
    await database.db
      .update(runs)
      .set({ source: 'hook', externalId: 'cc-1', agent: 'claude-code' })
      .where(eq(runs.id, 'hook-run'));

    const hook = await (await GET(apiRequest('GET', '/api/runs?source=hook'), noParams)).json();
    expect(hook.items.map((r: { id: string }) => r.id)).toEqual(['hook-run']);
    const all = await (await GET(apiRequest('GET', '/api/runs'), noParams)).json();
    expect(all.items.map((r: { id: string }) => r.id).sort()).toEqual(['agent-run', 'hook-run']);
    const own = await (await GET(apiRequest('GET', '/api/runs?source=agent'), noParams)).json();
    expect(own.items.map((r: { id: string }) => r.id)).toEqual(['agent-run']);
  });

  it("source=hook lists Gemini CLI's sessions as it lists Claude Code's, each with its agent", async () => {
    const cwd = '/home/dev/connected';
    const gemini = await geminiCliHook(
      apiRequest('POST', '/api/hooks/gemini-cli?deadline=1', {
        json: {
          session_id: 'gm-listed',
          cwd,
          hook_event_name: 'BeforeTool',
          tool_name: 'run_shell_command',
          tool_input: { command: 'rm -rf /' },
        },
      }),
      noParams,
    );
    expect(gemini.status).toBe(200);
    const claude = await claudeCodeHook(
      apiRequest('POST', '/api/hooks/claude-code?deadline=1', {
        json: {
          session_id: 'cc-listed',
          transcript_path: '/tmp/t.jsonl',
          cwd,
          hook_event_name: 'PreToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'rm -rf /' },
          tool_use_id: 'toolu_listed',
        },
      }),
      noParams,
    );
    expect(claude.status).toBe(200);

    // On PGlite a call decided at once is stored in the next turn of the event loop: wait for both.
    const listed = async () => {
      const body = await (await GET(apiRequest('GET', '/api/runs?source=hook'), noParams)).json();
      return (body.items as { agent: string | null; title: string | null }[]).filter((r) => r.title === cwd);
    };
    const deadline = Date.now() + 10_000;
    while ((await listed()).length < 2 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect((await listed()).map((r) => r.agent).sort()).toEqual(['claude-code', 'gemini-cli']);
  });

  it('an unknown source is a 400 naming the field', async () => {
    const response = await GET(apiRequest('GET', '/api/runs?source=telepathy'), noParams);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('source');
  });
});
