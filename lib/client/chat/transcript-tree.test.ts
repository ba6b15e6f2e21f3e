import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from './transcript';
import { nestSubagents, type TranscriptNode } from './transcript-tree';

const tool = (id: string, agentId: string, parents: string[]): TranscriptItem => ({
  kind: 'tool',
  id,
  runId: 'r',
  toolCallId: id,
  tool: 'bash',
  params: {},
  status: 'done',
  agentId,
  parents,
});
const agent = (id: string, agentId: string, parents: string[]): TranscriptItem => ({
  kind: 'agent',
  id,
  runId: 'r',
  agentId,
  parents,
  profile: agentId,
  prompt: 'p',
});
const shape = (nodes: TranscriptNode[]): unknown =>
  nodes.map((n) => (n.children.length ? { [n.item.id]: shape(n.children) } : n.item.id));

describe('nestSubagents', () => {
  it("a subagent's calls nest under it, its own subagent's under that, the main agent's stay on top", () => {
    const items = [
      { kind: 'user', id: 'u', text: 'go' } as TranscriptItem,
      tool('task', 'main', []),
      agent('rev', 'reviewer', ['main']),
      tool('rev-call', 'reviewer', ['main']),
      agent('deep', 'checker', ['main', 'reviewer']),
      tool('deep-call', 'checker', ['main', 'reviewer']),
      tool('rev-call-2', 'reviewer', ['main']),
      tool('after', 'main', []),
    ];
    expect(shape(nestSubagents(items))).toEqual([
      'u',
      'task',
      { rev: ['rev-call', { deep: ['deep-call'] }, 'rev-call-2'] },
      'after',
    ]);
  });

  it('a subagent call without its note (an older log) stays on top rather than vanish', () => {
    expect(shape(nestSubagents([tool('orphan', 'reviewer', ['main'])]))).toEqual(['orphan']);
  });
});
