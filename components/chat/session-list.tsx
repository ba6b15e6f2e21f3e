// The conversations to reopen: the user's sessions, newest activity first, each a link to its
// latest run (`/?run=<id>`), which brings back every turn. Collapsed by default so the chat
// keeps the space; the current one is marked.
'use client';
import Link from 'next/link';
import { Button, Revealed } from '@/components/ui';
import { useSessions } from '@/lib/client/chat/sessions';
import { runStatusLabel } from '@/lib/client/runs-list';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function SessionList({ currentSessionId }: { currentSessionId?: string }) {
  const sessions = useSessions();
  const items = sessions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <details className="chat-sessions">
      <summary>Conversations</summary>
      <nav aria-label="Conversations">
        {sessions.isPending && <p className="chat-sessions__note">Loading…</p>}
        {sessions.isError && <p role="alert">Could not load the conversations: {sessions.error.message}</p>}
        {sessions.isSuccess && items.length === 0 && <p className="chat-sessions__note">No conversations yet.</p>}
        <ul className="chat-sessions__list">
          {items.map((s) => (
            <li key={s.sessionId}>
              <Link
                href={`/?run=${encodeURIComponent(s.lastRunId)}`}
                aria-current={s.sessionId === currentSessionId ? 'page' : undefined}
              >
                <Revealed text={s.title || '(untitled)'} />
              </Link>
              <span className="chat-sessions__meta">
                {when.format(new Date(s.lastRunAt))} · {s.runCount === 1 ? '1 turn' : `${s.runCount} turns`} ·{' '}
                {runStatusLabel(s.lastStatus)}
              </span>
            </li>
          ))}
        </ul>
        {sessions.hasNextPage && (
          <Button size="sm" onClick={() => void sessions.fetchNextPage()} disabled={sessions.isFetchingNextPage}>
            Show older
          </Button>
        )}
      </nav>
    </details>
  );
}
