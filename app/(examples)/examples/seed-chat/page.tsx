// /examples/seed-chat: the seed design's React example (components/examples/chat-interface.tsx)
// running against this server's API with the signed-in session's cookie, as any page does.
import type { Metadata } from 'next';
import { RequireRole } from '@/app/_auth/require-role';
import { ChatInterface } from '@/components/examples/chat-interface';
import '@/components/examples/seed-chat.css';

export const metadata: Metadata = { title: 'Seed example: chat' };

export default function SeedChatPage() {
  return (
    <RequireRole action="runs:start" pathname="/examples/seed-chat">
      <h1 className="page-title">Seed example: chat</h1>
      <p className="page-lead">
        The relay design&apos;s React component as written there: Start sends &ldquo;Deploy to staging&rdquo; with an
        empty allowlist, and the approval it raises is answered with Approve Once, Always Allow or Deny.
      </p>
      <div className="seed-chat">
        <ChatInterface />
      </div>
    </RequireRole>
  );
}
