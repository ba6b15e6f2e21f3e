// One tool call as a card: the tool, who called it (a subagent shows its parents), its status
// (waiting for approval / running / done / denied / expired), its parameters, and its output or
// why it was denied.
import { Badge, JsonView, Revealed, cx } from '@/components/ui';
import type { ToolItem } from '@/lib/client/chat/transcript';
import { agentChain } from '@/lib/client/chat/types';
import { ToolOutput } from './tool-output';

const MODIFIER: Record<ToolItem['status'], string> = {
  'waiting for approval': 'waiting',
  running: 'running',
  done: 'done',
  denied: 'denied',
  expired: 'denied',
};

export function ToolCallCard({ item }: { item: ToolItem }) {
  const subagent = item.parents.length > 0;
  const blocked = item.status === 'denied' || item.status === 'expired';
  return (
    <article aria-label={`${item.tool} call`} className={cx('tool-card', `tool-card--${MODIFIER[item.status]}`)}>
      <div className="tool-card__head">
        <h3 className="tool-card__name">
          <Revealed text={item.tool} />
        </h3>
        <Badge>{item.status}</Badge>
        {item.status === 'done' && item.isError && <Badge tone="danger">error</Badge>}
        {subagent && (
          <span className="tool-card__agent">
            by agent <Revealed text={agentChain(item.agentId, item.parents)} />
          </span>
        )}
      </div>
      {item.params !== undefined && <JsonView value={item.params} label={`${item.tool} parameters`} />}
      {blocked && item.reason && (
        <p className="tool-card__reason">
          <strong>{item.status === 'expired' ? 'Expired: ' : 'Denied: '}</strong>
          <Revealed text={item.reason} />
        </p>
      )}
      {!blocked && item.output !== undefined && <ToolOutput output={item.output} />}
    </article>
  );
}
