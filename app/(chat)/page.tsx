// Chat: talk to the agent; every tool call it makes shows as a card, and calls that need a human
// open the approval dialog. The run lives in the URL (`/?run=<id>`).
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RequireRole } from '@/app/_auth/require-role';
import { ChatView } from '@/components/chat/chat-view';

export const metadata: Metadata = { title: 'Chat' };

export default function ChatPage() {
  return (
    <RequireRole action="runs:start" pathname="/">
      <h1 className="page-title">Chat</h1>
      <Suspense fallback={<p>Loading the chat…</p>}>
        <ChatView />
      </Suspense>
    </RequireRole>
  );
}
