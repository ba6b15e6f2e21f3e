// One rule as a table row: what it matches, what it does, and its Edit / Delete buttons. The
// rule that decided the last test call is highlighted (and says so in words, not only colour).
import { Badge, Button, cx } from '@/components/ui';
import type { Rule } from '@/lib/policy/types';
import { ruleName } from '@/lib/client/policy-edit';

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max)}…` : text);

export interface RuleRowProps {
  rule: Rule;
  index: number;
  deciding: boolean;
  disabled: boolean;
  onEdit: (index: number) => void;
  onDelete: (index: number) => void;
}

export function RuleRow({ rule, index, deciding, disabled, onEdit, onDelete }: RuleRowProps) {
  const name = ruleName(rule, index);
  const params = Object.entries(rule.params ?? {});
  return (
    <tr className={cx(deciding && 'rules-row--deciding')} aria-current={deciding ? 'true' : undefined}>
      <td>
        <div className="rules-row__name">{name}</div>
        {deciding && <Badge tone="warning">Deciding rule</Badge>}
        {rule.description && <p className="rules-muted">{clip(rule.description, 120)}</p>}
      </td>
      <td>
        <Badge>{rule.action}</Badge>
        {rule.once && <p className="rules-muted">once</p>}
      </td>
      <td>
        <code className="rules-code">{rule.tool}</code>
      </td>
      <td>{rule.agent ? <code className="rules-code">{rule.agent}</code> : <span className="rules-muted">any</span>}</td>
      <td>
        {params.length === 0 ? (
          <span className="rules-muted">any</span>
        ) : (
          <ul className="rules-list">
            {params.map(([key, pattern]) => (
              <li key={key}>
                {key}: <code className="rules-code">{pattern}</code>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>
        {(rule.when ?? []).length === 0 ? (
          <span className="rules-muted">none</span>
        ) : (
          <ul className="rules-list">
            {(rule.when ?? []).map((c, i) => (
              <li key={i} title={c.value}>
                {c.key} {c.op} <code className="rules-code">{clip(c.value)}</code>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td>{rule.timeoutS === undefined ? <span className="rules-muted">none</span> : `${rule.timeoutS} s${rule.onTimeout ? ', then deny' : ''}`}</td>
      <td>
        <div className="rules-row__actions">
          <Button size="sm" onClick={() => onEdit(index)} disabled={disabled} aria-label={`Edit rule ${name}`}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onDelete(index)} disabled={disabled} aria-label={`Delete rule ${name}`}>
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}
