// The policy's rules as a table. Order does not matter to the engine, so the table keeps the
// stored order and does not offer reordering.
import { Table } from '@/components/ui';
import { describeRule } from '@/lib/policy/explain';
import type { Rule } from '@/lib/policy/types';
import { RuleRow } from './rule-row';

export interface RulesTableProps {
  rules: readonly Rule[];
  /** Only rules whose id, summary or description contain this text (case-insensitive). */
  filter?: string;
  decidingIndex?: number;
  disabled: boolean;
  onEdit: (index: number) => void;
  onDelete: (index: number) => void;
}

const matches = (rule: Rule, query: string) => `${rule.id ?? ''} ${describeRule(rule)} ${rule.description ?? ''}`.toLowerCase().includes(query);

export function RulesTable({ rules, filter = '', decidingIndex, disabled, onEdit, onDelete }: RulesTableProps) {
  if (rules.length === 0) return <p className="rules-muted">No rules yet: every call gets the default action.</p>;
  const query = filter.trim().toLowerCase();
  const shown = rules.map((rule, index) => ({ rule, index })).filter(({ rule }) => !query || matches(rule, query));
  if (shown.length === 0) return <p className="rules-muted">No rule matches “{filter.trim()}”.</p>;
  return (
    <Table caption="Permission rules" className="rules-table">
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
          <RuleRow key={`${index}:${rule.id ?? ''}`} rule={rule} index={index} deciding={index === decidingIndex} disabled={disabled} onEdit={onEdit} onDelete={onDelete} />
        ))}
      </tbody>
    </Table>
  );
}
