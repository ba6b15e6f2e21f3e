// One message of the conversation: the user's, the assistant's (or a subagent's), or an error.
import { agentChain } from '@/lib/client/chat/types';
import type { TranscriptItem } from '@/lib/client/chat/transcript';
import { Revealed, cx } from '@/components/ui';

type MessageItem = Extract<TranscriptItem, { kind: 'user' | 'assistant' | 'error' }>;

export function Message({ item }: { item: MessageItem }) {
  const who =
    item.kind === 'user'
      ? 'You'
      : item.kind === 'error'
        ? 'Error'
        : item.parents.length > 0
          ? `Agent ${agentChain(item.agentId, item.parents)}`
          : 'Assistant';
  return (
    <div className={cx('chat-msg', `chat-msg--${item.kind}`)}>
      <p className="chat-msg__who">
        <Revealed text={who} />
      </p>
      <p className="chat-msg__text">
        <Revealed text={item.kind === 'error' ? item.message : item.text} />
      </p>
    </div>
  );
}
