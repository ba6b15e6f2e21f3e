// The `?mcp=<name>` pass-through of the Claude Code hook: only a tool /api/mcp serves to the hook's
// caller skips the gate; every other `mcp__<name>__*` call, and any call while that cannot be
// known, is decided by the gate as an MCP tool under its full name.
import { describe, expect, it } from 'vitest';
import type { ExternalCall } from '../external/types';
import { decideHook, ownMcpToolName, type ClaudeCodeHookDeps, type ClaudeCodeHookInput } from './claude-code';

const SERVED = new Set(['bash', 'read_file', 'mcp__github__create_issue']);

type Lookup = 'served' | 'throws' | 'rejects';

/** A gate that records what it was asked and denies it; the lookup as the row says. */
function deps(lookup: Lookup = 'served') {
  const decided: ExternalCall[] = [];
  const asked: string[] = [];
  const hookDeps: ClaudeCodeHookDeps = {
    gate: {
      decide: async (_ref, call) => {
        decided.push(call);
        return { runId: 'run-1', decision: 'deny', reason: 'decided by the gate' };
      },
    },
    mcpServes: (name) => {
      asked.push(name);
      if (lookup === 'throws') throw new Error('runtime not ready');
      if (lookup === 'rejects') return Promise.reject(new Error('settings unreadable'));
      return Promise.resolve(SERVED.has(name));
    },
  };
  return { hookDeps, decided, asked };
}

const input = (tool_name: string): ClaudeCodeHookInput => ({
  session_id: 's1',
  hook_event_name: 'PreToolUse',
  tool_name,
  tool_input: { command: 'rm -rf x' },
});

const decide = (hookDeps: ClaudeCodeHookDeps, tool: string, mcp: string | undefined) =>
  decideHook(hookDeps, 'u1', input(tool), mcp ? { mcp } : {}, new AbortController().signal);

describe('ownMcpToolName', () => {
  it.each([
    ['mcp__gatehouse__bash', 'gatehouse', 'bash'],
    ['mcp__gatehouse__mcp__github__create_issue', 'gatehouse', 'mcp__github__create_issue'],
    ['mcp__gatehouse__', 'gatehouse', undefined],
    ['mcp__gatehousex__bash', 'gatehouse', undefined],
    ['mcp__gate__bash', 'gatehouse', undefined],
    ['Bash', 'gatehouse', undefined],
    ['mcp__gatehouse__bash', undefined, undefined],
  ])('%s under ?mcp=%s names %s', (tool, mcp, expected) => {
    expect(ownMcpToolName(tool, mcp)).toBe(expected);
  });

  it('names nothing for a tool_name that is not a string', () => {
    expect(ownMcpToolName(42, 'gatehouse')).toBeUndefined();
  });
});

describe('decideHook with ?mcp=<name>', () => {
  it.each([
    ['a built-in tool /api/mcp serves', 'mcp__gatehouse__bash'],
    ['an upstream tool /api/mcp serves under its own mcp__ name', 'mcp__gatehouse__mcp__github__create_issue'],
  ])('lets %s through without asking the gate', async (_what, tool) => {
    const { hookDeps, decided } = deps();
    const verdict = await decide(hookDeps, tool, 'gatehouse');
    expect(verdict).toEqual({
      decision: 'allow',
      reason: "Gatehouse's MCP server decides this call itself (asked once)",
    });
    expect(decided).toEqual([]);
  });

  it.each<[string, string, string | undefined, Lookup]>([
    [
      'a tool /api/mcp does not serve (or hides from this token)',
      'mcp__gatehouse__unknown_tool',
      'gatehouse',
      'served',
    ],
    ['the bare prefix', 'mcp__gatehouse__', 'gatehouse', 'served'],
    ['another server whose name starts alike', 'mcp__gatehousex__bash', 'gatehouse', 'served'],
    ["a served name without ?mcp (it is some other server's)", 'mcp__gatehouse__bash', undefined, 'served'],
    ['a served name when the lookup throws', 'mcp__gatehouse__bash', 'gatehouse', 'throws'],
    ['a served name when the lookup rejects', 'mcp__gatehouse__bash', 'gatehouse', 'rejects'],
  ])('sends %s to the gate as an MCP tool under its full name', async (_what, tool, mcp, lookup) => {
    const { hookDeps, decided } = deps(lookup);
    const verdict = await decide(hookDeps, tool, mcp);
    expect(verdict).toEqual({ decision: 'deny', reason: 'decided by the gate' });
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ tool, params: { command: 'rm -rf x' }, risk: 'write' });
  });

  it('asks /api/mcp about the name after the prefix only, and never for a call not addressed to it', async () => {
    const { hookDeps, asked } = deps();
    await decide(hookDeps, 'mcp__gatehouse__read_file', 'gatehouse');
    await decide(hookDeps, 'Bash', 'gatehouse');
    await decide(hookDeps, 'mcp__other__read_file', 'gatehouse');
    expect(asked).toEqual(['read_file']);
  });
});
