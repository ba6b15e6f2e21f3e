// What the human is asked about: the tool, the agent (with its parents), the risk, the time
// left, the parameters, and the diff of a file write or edit.
import { Badge, JsonView, Revealed } from '@/components/ui';
import type { RelayRequest } from '@/lib/contract';
import { agentChain } from '@/lib/client/chat/types';
import { Countdown } from './countdown';
import { DiffView, isDiffPreview } from './diff-view';
import { WhyItAsks } from './why-it-asks';

export function ApprovalDetails({ relay }: { relay: RelayRequest }) {
  return (
    <>
      <dl className="approval-facts">
        <dt>Tool</dt>
        <dd>
          <code>
            <Revealed text={relay.tool} />
          </code>
        </dd>
        <dt>Agent</dt>
        <dd>
          <Revealed text={relay.parents.length > 0 ? `${relay.agentId} (subagent of ${agentChain(relay.parents.at(-1), relay.parents.slice(0, -1))})` : relay.agentId} />
        </dd>
        <dt>Risk</dt>
        <dd>
          <Badge>{relay.risk ?? 'unknown'}</Badge>
        </dd>
        <dt>Time left</dt>
        <dd>
          <Countdown expiresAt={relay.expiresAt} />
        </dd>
      </dl>
      <section className="approval-section">
        <h3 className="approval-section__title">
          Parameters
        </h3>
        <JsonView value={relay.params} label="Parameters" limit={400} />
      </section>
      {isDiffPreview(relay.preview) && <DiffView preview={relay.preview} />}
      <WhyItAsks decision={relay.decision} />
    </>
  );
}
