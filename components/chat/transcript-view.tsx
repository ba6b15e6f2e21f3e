// The conversation: messages, tool-call cards and subagents in the order they happened; a
// subagent's calls and messages are nested under the note that started it.
import { useMemo } from 'react';
import type { TranscriptItem } from '@/lib/client/chat/transcript';
import { nestSubagents, type TranscriptNode } from '@/lib/client/chat/transcript-tree';
import { agentChain } from '@/lib/client/chat/types';
import { Revealed } from '@/components/ui';
import { Message } from './message';
import { ToolCallCard } from './tool-call-card';

export function TranscriptView({ items }: { items: TranscriptItem[] }) {
  const nodes = useMemo(() => nestSubagents(items), [items]);
  return (
    <section className="chat-log" role="log" aria-labelledby="chat-log-title">
      <h2 id="chat-log-title" className="ui-visually-hidden">
        Conversation
      </h2>
      {items.length === 0 && (
        <p className="chat-empty">
          Ask the agent to do something, e.g. <code>$ ls -la</code> or <code>write notes.md: hello</code>.
        </p>
      )}
      {nodes.map((node) => (
        <Node key={node.item.id} node={node} />
      ))}
    </section>
  );
}

function Node({ node: { item, children } }: { node: TranscriptNode }) {
  if (item.kind === 'tool') return <ToolCallCard item={item} />;
  if (item.kind !== 'agent') return <Message item={item} />;
  const chain = agentChain(item.agentId, item.parents);
  return (
    <section className="agent-group" aria-label={`Subagent ${chain}`}>
      <p className="agent-note">
        Subagent{' '}
        <strong>
          <Revealed text={chain} />
        </strong>{' '}
        {item.output === undefined ? 'started' : 'finished'}: <Revealed text={item.prompt} />
      </p>
      {children.length > 0 && (
        <div className="agent-group__items">
          {children.map((child) => (
            <Node key={child.item.id} node={child} />
          ))}
        </div>
      )}
    </section>
  );
}
