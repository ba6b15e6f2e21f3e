// The rules grouped as a permissions manager shows them: Allow, Ask, Deny, each with the rules
// people added and, folded away, the built-in defaults of that action. A fold opens by itself when
// the filter finds something in it or it holds the rule that decided the last test call.
import { isBuiltinRule } from '@/lib/policy/diff';
import type { Action, Rule } from '@/lib/policy/types';
import { matchesFilter, RulesTable, type RulesTableProps } from './rules-table';

const GROUPS: { action: Action; title: string; lead: string }[] = [
  { action: 'allow', title: 'Allow', lead: 'Run without asking.' },
  { action: 'ask', title: 'Ask', lead: 'Wait for a person to approve.' },
  { action: 'deny', title: 'Deny', lead: 'Never run; deny wins over ask and allow.' },
];

type Indexed = { rule: Rule; index: number };

export type RuleGroupsProps = Omit<RulesTableProps, 'only' | 'caption'>;

function Group({ group, all, table }: { group: (typeof GROUPS)[number]; all: Indexed[]; table: RuleGroupsProps }) {
  const { action, title, lead } = group;
  const mine = all.filter((r) => r.rule.action === action);
  const custom = mine.filter((r) => !isBuiltinRule(r.rule));
  const builtin = mine.filter((r) => isBuiltinRule(r.rule));
  const query = (table.filter ?? '').trim().toLowerCase();
  const open =
    (query !== '' && builtin.some((r) => matchesFilter(r.rule, query))) ||
    builtin.some((r) => r.index === table.decidingIndex);
  const headingId = `rules-group-${action}`;
  return (
    <section aria-labelledby={headingId} className={`rules-group rules-group--${action}`}>
      <h3 id={headingId} className="rules-group__title">
        {title} <span className="rules-muted">({mine.length})</span>
      </h3>
      <p className="rules-muted">{lead}</p>
      {custom.length === 0 ? (
        <p className="rules-muted">No {action} rules of your own.</p>
      ) : (
        <RulesTable {...table} only={custom.map((r) => r.index)} caption={`${title} rules`} />
      )}
      {builtin.length > 0 && (
        <details className="rules-builtin" open={open || undefined}>
          <summary>
            Built-in {action} defaults ({builtin.length})
          </summary>
          <RulesTable {...table} only={builtin.map((r) => r.index)} caption={`Built-in ${action} defaults`} />
        </details>
      )}
    </section>
  );
}

export function RuleGroups(props: RuleGroupsProps) {
  if (props.rules.length === 0) return <p className="rules-muted">No rules yet: every call gets the default action.</p>;
  const all = props.rules.map((rule, index) => ({ rule, index }));
  return (
    <div className="rules-groups">
      {GROUPS.map((g) => (
        <Group key={g.action} group={g} all={all} table={props} />
      ))}
    </div>
  );
}
