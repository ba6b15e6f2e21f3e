// The answer to a test call: the action, why, the deciding rule, and for shell commands the
// decision of each part (a compound command is as strict as its strictest part).
import { Badge, Revealed, Table } from '@/components/ui';
import { ruleName } from '@/lib/client/policy-edit';
import { approvalRequirement, approverRoles } from '@/lib/policy/approvals';
import type { Decision, Policy, RuleRef } from '@/lib/policy/types';
import { REASON_LABELS } from './constants';

function refName(ref: RuleRef, policy: Policy): string {
  const rule = policy.rules[ref.index];
  return rule ? ruleName(rule, ref.index) : (ref.id ?? `#${ref.index + 1}`);
}

/** The rule that decided, when a rule did (a mode can override what the rules said). */
export function decidingRule(decision: Decision): RuleRef | undefined {
  return decision.reason === 'matched_rule' ? decision.rule : undefined;
}

export function DecisionView({ decision, policy }: { decision: Decision; policy: Policy }) {
  const deciding = decidingRule(decision);
  const overridden = !deciding && decision.rule;
  const quorum = approvalRequirement(policy, decision);
  return (
    <section className="rules-decision" aria-labelledby="decision-heading" aria-live="polite">
      <h3 id="decision-heading" className="rules-decision__title">
        Decision <Badge>{decision.action}</Badge>
      </h3>
      <p className="rules-note">
        Decided by {REASON_LABELS[decision.reason] ?? decision.reason}
        {deciding && (
          <>
            :{' '}
            <strong>
              deciding rule <Revealed text={refName(deciding, policy)} />
            </strong>{' '}
            (highlighted in the rules table)
          </>
        )}
        {overridden && (
          <>
            {' '}
            (over rule <Revealed text={refName(overridden, policy)} />, which said {overridden.action})
          </>
        )}
        .
      </p>
      <p className="rules-note">
        <Revealed text={decision.explanation} />
      </p>
      {quorum && (
        <p className="rules-note">
          <strong>{quorum.count === 1 ? 'Needs one approval' : `Needs ${quorum.count} approvals`}</strong>
          {approverRoles(quorum).length === 0
            ? ': nobody may give it (the rules of its parts name roles with none in common); it can only be denied.'
            : `${quorum.count === 1 ? '' : ' from different people'} (${approverRoles(quorum).join(' or ')}); one denial denies it.`}
        </p>
      )}
      {decision.parts && decision.parts.length > 0 && (
        <Table caption="Decision of each part">
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">Decision</th>
              <th scope="col">Rule</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {decision.parts.map((part, i) => (
              <tr key={i}>
                <td>
                  <code className="rules-code">
                    <Revealed text={part.command} />
                  </code>
                </td>
                <td>
                  <Badge>{part.action}</Badge>
                </td>
                <td>
                  {part.rule ? (
                    <Revealed text={refName(part.rule, policy)} />
                  ) : (
                    <span className="rules-muted">{REASON_LABELS[part.reason] ?? part.reason}</span>
                  )}
                </td>
                <td>
                  <Revealed text={part.explanation} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
