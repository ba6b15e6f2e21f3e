// One tool call as a compact card: the tool, who called it (a subagent shows its parents), one
// status (waiting for approval / running / done / error / denied / expired), how it was allowed or
// refused ("allowed by rule #12", "approved by alice", "denied by admin: reason"), its parameters,
// and its output (long output collapsed) or why it did not run.
import { Badge, JsonView, Revealed, cx } from '@/components/ui';
import { howDecided } from '@/lib/client/chat/tool-how';
import type { ToolItem } from '@/lib/client/chat/transcript';
import { agentChain } from '@/lib/client/chat/types';
import { ToolOutput } from './tool-output';

const MODIFIER: Record<ToolItem['status'], string> = {
  'waiting for approval': 'waiting',
  running: 'running',
  done: 'done',
  error: 'denied',
  denied: 'denied',
  expired: 'denied',
};

export function ToolCallCard({ item }: { item: ToolItem }) {
  const subagent = item.parents.length > 0;
  const blocked = item.status === 'denied' || item.status === 'expired';
  const how = howDecided(item);
  // A human's denial reason is already in `how`; the gate's explanation is shown on its own line.
  const reason =
    blocked && item.reason && !(item.resolution?.reason && how?.endsWith(item.resolution.reason))
      ? item.reason
      : undefined;
  return (
    <article aria-label={`${item.tool} call`} className={cx('tool-card', `tool-card--${MODIFIER[item.status]}`)}>
      <div className="tool-card__head">
        <h3 className="tool-card__name">
          <Revealed text={item.tool} />
        </h3>
        <Badge tone={item.status === 'error' ? 'danger' : undefined}>{item.status}</Badge>
        {how && (
          <span className="tool-card__how">
            <Revealed text={how} />
          </span>
        )}
        {subagent && (
          <span className="tool-card__agent">
            by agent <Revealed text={agentChain(item.agentId, item.parents)} />
          </span>
        )}
      </div>
      {item.params !== undefined && <JsonView value={item.params} label={`${item.tool} parameters`} />}
      {item.editedParams && (
        <div className="tool-card__edited">
          <strong>Edited by an approver:</strong>
          <JsonView value={item.editedParams} label={`${item.tool} edited parameters`} />
        </div>
      )}
      {item.progress && item.status === 'waiting for approval' && (
        <p className="tool-card__reason">{`${item.progress.approvals.length} of ${item.progress.needed} approvals: ${item.progress.approvals.map((a) => a.by).join(', ')}`}</p>
      )}
      {reason && (
        <p className="tool-card__reason">
          <strong>{item.status === 'expired' ? 'Expired: ' : 'Denied: '}</strong>
          <Revealed text={reason} />
        </p>
      )}
      {!blocked && item.output !== undefined && <ToolOutput output={item.output} />}
    </article>
  );
}
