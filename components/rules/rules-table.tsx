// Some of the policy's rules as a table (a card per rule at phone width). Order does not matter to
// the engine, so the table keeps the stored order and does not offer reordering.
import '@/components/runs/table-cards.css';
import { Table } from '@/components/ui';
import { describeRule } from '@/lib/policy/explain';
import type { Rule } from '@/lib/policy/types';
import { RuleRow } from './rule-row';

export interface RulesTableProps {
  rules: readonly Rule[];
  /** The indexes of the rules this table shows (all when absent). */
  only?: readonly number[];
  caption?: string;
  /** Only rules whose id, summary or description contain this text (case-insensitive). */
  filter?: string;
  decidingIndex?: number;
  disabled: boolean;
  onEdit: (index: number) => void;
  onDelete: (index: number) => void;
}

export const matchesFilter = (rule: Rule, query: string) =>
  `${rule.id ?? ''} ${describeRule(rule)} ${rule.description ?? ''}`.toLowerCase().includes(query);

export function RulesTable({
  rules,
  only,
  caption = 'Permission rules',
  filter = '',
  decidingIndex,
  disabled,
  onEdit,
  onDelete,
}: RulesTableProps) {
  const query = filter.trim().toLowerCase();
  const indexes = only ?? rules.map((_, index) => index);
  const shown = indexes
    .flatMap((index) => (rules[index] ? [{ rule: rules[index], index }] : []))
    .filter(({ rule }) => !query || matchesFilter(rule, query));
  if (shown.length === 0) return <p className="rules-muted">No rule here matches “{filter.trim()}”.</p>;
  return (
    <Table caption={caption} className="rules-table cards-at-phone">
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Action</th>
          <th scope="col">Tool</th>
          <th scope="col">Agent</th>
          <th scope="col">Params</th>
          <th scope="col">Conditions</th>
          <th scope="col">Timeout</th>
          <th scope="col">
            <span className="ui-visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.map(({ rule, index }) => (
          <RuleRow
            key={`${index}:${rule.id ?? ''}`}
            rule={rule}
            index={index}
            deciding={index === decidingIndex}
            disabled={disabled}
            onEdit={onEdit}
            onDelete={onDelete}
          />
        ))}
      </tbody>
    </Table>
  );
}
