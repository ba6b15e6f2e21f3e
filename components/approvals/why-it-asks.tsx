// Why the gate asks: the policy's explanation, the rule (or default) that decided, and for a
// shell command the decision of each part.
import { Badge, Revealed } from '@/components/ui';
import type { Decision } from '@/lib/policy/types';

const REASON_TEXT: Record<string, string> = {
  matched_rule: 'a policy rule',
  session_grant: 'an Always Allow grant',
  risk_default: "the default for the tool's risk",
  default_action: "the policy's default action",
  mode: 'the current mode',
  unparseable: 'the command could not be analysed',
};

export function decidedBy(decision: Decision): string {
  if (decision.rule)
    return `Rule #${decision.rule.index + 1}${decision.rule.id ? ` (${decision.rule.id})` : ''}: ${decision.rule.action}`;
  return `No rule: ${REASON_TEXT[decision.reason] ?? decision.reason}`;
}

export function WhyItAsks({ decision }: { decision: Decision }) {
  const parts = decision.parts ?? [];
  return (
    <section className="approval-section" aria-labelledby="approval-why-title">
      <h3 id="approval-why-title" className="approval-section__title">
        Why it asks
      </h3>
      <p className="approval-why">
        <Revealed text={decision.explanation} />
      </p>
      <p className="approval-why">
        Decided by:{' '}
        <strong>
          <Revealed text={decidedBy(decision)} />
        </strong>
      </p>
      {parts.length > 1 && (
        <ul className="approval-parts" aria-label="Decision per command part">
          {parts.map((part, i) => (
            <li key={i}>
              <code>
                <Revealed text={part.command} />
              </code>{' '}
              <Badge>{part.action}</Badge> <Revealed text={part.explanation} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
