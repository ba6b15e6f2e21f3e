// What an import would change, before anything is saved: the counts, the built-in safety denies it
// would drop (called out first, as a warning), then the rules added, removed and changed.
import { Notice, Revealed } from '@/components/ui';
import { ruleName } from '@/lib/client/policy-edit';
import type { PolicyDiff } from '@/lib/policy/diff';
import { isEmptyDiff } from '@/lib/policy/diff';
import { describeRule } from '@/lib/policy/explain';
import type { Rule } from '@/lib/policy/types';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** One line: "3 rules added, 25 removed, 1 changed, 2 unchanged". */
export function diffSummary(diff: PolicyDiff): string {
  if (isEmptyDiff(diff)) return 'The import changes nothing.';
  const parts = [
    `${plural(diff.added.length, 'rule')} added`,
    `${diff.removed.length} removed`,
    `${diff.changed.length} changed`,
    `${diff.unchanged} unchanged`,
  ];
  if (diff.defaultAction) parts.push(`default action ${diff.defaultAction.before} → ${diff.defaultAction.after}`);
  if (diff.riskDefaults) parts.push('risk defaults changed');
  return `${parts.join(', ')}.`;
}

function RuleLine({ rule, index }: { rule: Rule; index: number }) {
  return (
    <li>
      {rule.id ? (
        <strong>
          <Revealed text={ruleName(rule, index)} />:{' '}
        </strong>
      ) : null}
      <code className="rules-code">
        <Revealed text={describeRule(rule)} />
      </code>
    </li>
  );
}

function Group({ title, rules }: { title: string; rules: readonly Rule[] }) {
  if (rules.length === 0) return null;
  return (
    <section aria-label={title} className="rules-diff__group">
      <h4 className="rules-diff__title">
        {title} ({rules.length})
      </h4>
      <ul className="rules-diff__list">
        {rules.map((rule, i) => (
          <RuleLine key={i} rule={rule} index={i} />
        ))}
      </ul>
    </section>
  );
}

export function ImportDiff({ diff }: { diff: PolicyDiff }) {
  return (
    <div className="rules-diff" aria-label="Changes the import makes" role="group">
      <p className="rules-diff__summary">{diffSummary(diff)}</p>
      {diff.safetyDeniesLost.length > 0 && (
        <Notice tone="warning">
          <strong>The import removes {plural(diff.safetyDeniesLost.length, 'built-in safety deny rule')}</strong>:{' '}
          {diff.safetyDeniesLost.map((r) => r.id).join(', ')}. Calls they block today (private network addresses,
          deleting the file system, sudo, piping into a shell) would no longer be denied by them.
        </Notice>
      )}
      <Group title="Added" rules={diff.added} />
      <Group title="Removed" rules={diff.removed} />
      <Group title="Changed (after the import)" rules={diff.changed.map((c) => c.after)} />
    </div>
  );
}
