// The conversation: messages, tool-call cards and subagent notes in the order they happened.
import type { TranscriptItem } from '@/lib/client/chat/transcript';
import { agentChain } from '@/lib/client/chat/types';
import { Revealed } from '@/components/ui';
import { Message } from './message';
import { ToolCallCard } from './tool-call-card';

export function TranscriptView({ items }: { items: TranscriptItem[] }) {
  return (
    <section className="chat-log" role="log" aria-labelledby="chat-log-title">
      <h2 id="chat-log-title" className="ui-visually-hidden">
        Conversation
      </h2>
      {items.length === 0 && <p className="chat-empty">Ask the agent to do something, e.g. <code>$ ls -la</code> or <code>write notes.md: hello</code>.</p>}
      {items.map((item) => {
        if (item.kind === 'tool') return <ToolCallCard key={item.id} item={item} />;
        if (item.kind === 'agent') {
          return (
            <p key={item.id} className="agent-note">
              Subagent{' '}
              <strong>
                <Revealed text={agentChain(item.agentId, item.parents)} />
              </strong>{' '}
              {item.output === undefined ? 'started' : 'finished'}: <Revealed text={item.prompt} />
            </p>
          );
        }
        return <Message key={item.id} item={item} />;
      })}
    </section>
  );
}
