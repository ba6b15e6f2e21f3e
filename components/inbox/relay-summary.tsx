// What one pending approval is, in a line or two: the headline, the agent, where it came from.
import { ApprovalHeadline } from '@/components/approvals/approval-details';
import { Badge, Revealed } from '@/components/ui';
import { shownRequest, type InboxRelay } from '@/lib/contract';

const SOURCES: Record<string, string> = { agent: 'Chat agent', hook: 'Hook', mcp: 'MCP client' };

export function RelaySummary({ relay }: { relay: InboxRelay }) {
  return (
    <div className="inbox-summary">
      <ApprovalHeadline relay={shownRequest(relay)} />
      <span className="inbox-summary__meta">
        <Badge>{SOURCES[relay.source] ?? relay.source}</Badge> agent <Revealed text={relay.request.agentId} />
      </span>
    </div>
  );
}

export function decidedText(relay: InboxRelay): string {
  const when = relay.decidedAt ? new Date(relay.decidedAt).toLocaleString() : 'just now';
  const by = relay.decidedBy && !['system', 'user'].includes(relay.decidedBy) ? ` by ${relay.decidedBy}` : '';
  const what: Record<string, string> = {
    approved: 'Approved',
    denied: 'Denied',
    expired: 'Expired (nobody decided in time)',
    cancelled: 'Cancelled (the run stopped)',
  };
  return `${what[relay.status] ?? relay.status}${relay.status === 'expired' ? '' : by} on ${when}`;
}
