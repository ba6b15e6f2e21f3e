// Profiles include MCP tools by glob: `general` gets every configured MCP tool, the narrower
// profiles none; a stored run naming an MCP tool its server cannot list now keeps a stand-in.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentTool } from '../../agent';
import { selectTools, type McpToolSource } from './agent-profiles';

const tool = (name: string): AgentTool => ({
  name,
  description: name,
  inputSchema: z.record(z.string(), z.unknown()),
  risk: 'write',
  execute: async () => ({ output: '' }),
});

const source: McpToolSource = {
  version: 7,
  agentTools: (names) => (names ?? ['mcp__gh__create_issue', 'mcp__fs__read']).map((n) => tool(n)),
};

describe('agent profiles and MCP tools', () => {
  it('general includes every configured MCP tool', () => {
    const selection = selectTools(undefined, undefined, source);
    expect(selection.toolNames).toEqual(
      expect.arrayContaining(['bash', 'task', 'mcp__gh__create_issue', 'mcp__fs__read']),
    );
    expect(selection.tools.map((t) => t.name)).toContain('mcp__fs__read');
    expect(selection.mcpVersion).toBe(7);
  });

  it('a narrower profile gets no MCP tool, and asking for one is a 400 naming the field', () => {
    expect(selectTools('reader', undefined, source).toolNames).toEqual(['read_file', 'list_files']);
    expect(() => selectTools('reader', ['mcp__fs__read'], source)).toThrow(/tools.0/);
  });

  it('a request may narrow to some MCP tools', () => {
    expect(selectTools('general', ['mcp__fs__read'], source).tools.map((t) => t.name)).toEqual(['mcp__fs__read']);
  });

  it('an MCP tool not listed now (its server is down) is kept for a stored run', () => {
    const selection = selectTools('general', ['mcp__down__x'], source);
    expect(selection.toolNames).toEqual(['mcp__down__x']);
    expect(selection.tools.map((t) => t.name)).toEqual(['mcp__down__x']);
  });

  it('without MCP servers general is the built-in tools and task', () => {
    expect(selectTools(undefined, undefined).toolNames).not.toContain('mcp__fs__read');
  });
});
