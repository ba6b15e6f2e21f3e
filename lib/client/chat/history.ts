// A stored run's conversation (run.state.messages, the model's messages) as transcript history:
// the text of each user and assistant message, up to and including the run's own prompt (the
// last user message). What the run did after its prompt comes back from its event log.
import type { HistoryMessage } from './transcript';

export function historyFromMessages(messages: readonly unknown[] | undefined): HistoryMessage[] {
  const list = (messages ?? []).flatMap((m): HistoryMessage[] => {
    const message = m as { role?: string; content?: unknown };
    if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system') return [];
    return [{ role: message.role, text: textOf(message.content) }];
  });
  let lastUser = -1;
  list.forEach((m, i) => m.role === 'user' && (lastUser = i));
  return list.slice(0, lastUser + 1).filter((m) => m.text !== '');
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: unknown }) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}
