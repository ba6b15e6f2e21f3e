// The transcript as a tree for display: a subagent's calls, messages and own subagents nest
// under the note that started it, in the order they happened. An item's agent chain
// (`[...parents, agentId]`) names its group; a subagent's note goes in its parent's group.
import type { TranscriptItem } from './transcript';

export interface TranscriptNode {
  item: TranscriptItem;
  children: TranscriptNode[];
}

const key = (chain: readonly string[]) => chain.join('\u0000');

export function nestSubagents(items: readonly TranscriptItem[]): TranscriptNode[] {
  const top: TranscriptNode[] = [];
  /** Every subagent group so far, newest last: a chain used twice collects into its latest group. */
  const groups: Array<{ chain: string; node: TranscriptNode }> = [];
  for (const item of items) {
    const node: TranscriptNode = { item, children: [] };
    const home =
      'parents' in item ? (item.kind === 'agent' ? item.parents : [...item.parents, item.agentId]) : undefined;
    const group = home && home.length > 1 ? groups.findLast((g) => g.chain === key(home)) : undefined;
    (group ? group.node.children : top).push(node);
    if (item.kind === 'agent') groups.push({ chain: key([...item.parents, item.agentId]), node });
  }
  return top;
}
