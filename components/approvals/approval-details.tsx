// What the human is asked about: the headline ("bash wants to run `ls -la`"), then the agent
// (with its parents), who started the run when it is someone else's, what the call can do, the
// time left, the parameters (once), an outside agent's call as its CLI sent it, the diff of a file
// write or edit, and why it asks.
import type { Ref } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Badge, JsonView, Revealed } from '@/components/ui';
import { useMe } from '@/lib/client/auth';
import { runQuery } from '@/lib/client/chat/run';
import { headlineOf, riskLabel } from '@/lib/client/approval-headline';
import type { RelayRequest } from '@/lib/contract';
import { agentChain } from '@/lib/client/chat/types';
import { Countdown } from './countdown';
import { DiffView, isDiffPreview } from './diff-view';
import { WhyItAsks } from './why-it-asks';

/** The dialog's description, and where focus starts (not on a button that approves). */
export function ApprovalHeadline({ relay, ref }: { relay: RelayRequest; ref?: Ref<HTMLParagraphElement> }) {
  const { tool, verb, object } = headlineOf(relay);
  return (
    <p className="approval-headline" tabIndex={-1} ref={ref}>
      <code>
        <Revealed text={tool} />
      </code>{' '}
      {verb}
      {object !== undefined && (
        <>
          {' '}
          <code className="approval-headline__object">
            <Revealed text={object} />
          </code>
        </>
      )}
    </p>
  );
}

export function ApprovalDetails({ relay }: { relay: RelayRequest }) {
  // Someone else's run (an approver or admin deciding it): who started it.
  const startedBy = useQuery(runQuery(relay.runId)).data?.startedBy;
  const me = useMe().data?.username;
  return (
    <>
      <dl className="approval-facts">
        <dt>Agent</dt>
        <dd>
          <Revealed
            text={
              relay.parents.length > 0
                ? `${relay.agentId} (subagent of ${agentChain(relay.parents.at(-1), relay.parents.slice(0, -1))})`
                : relay.agentId
            }
          />
        </dd>
        {startedBy && me && startedBy !== me && (
          <>
            <dt>Started by</dt>
            <dd>
              <Revealed text={startedBy} />
            </dd>
          </>
        )}
        <dt>Risk</dt>
        <dd>
          <Badge>{riskLabel(relay)}</Badge>
        </dd>
        <dt>Time left</dt>
        <dd>
          <Countdown expiresAt={relay.expiresAt} />
        </dd>
      </dl>
      <section className="approval-section">
        <h3 className="approval-section__title">Parameters</h3>
        <JsonView value={relay.params} label="Parameters" limit={400} />
      </section>
      {relay.original && (
        <section className="approval-section">
          <h3 className="approval-section__title">
            As <Revealed text={relay.agentId} /> sent it (<Revealed text={relay.original.tool} />)
          </h3>
          <JsonView value={relay.original.input} label={`As ${relay.agentId} sent it`} limit={400} />
        </section>
      )}
      {isDiffPreview(relay.preview) && <DiffView preview={relay.preview} />}
      <WhyItAsks decision={relay.decision} />
    </>
  );
}
