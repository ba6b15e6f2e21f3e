// One rule as a table row: what it matches, what it does, and its Edit / Delete buttons. The
// rule that decided the last test call is highlighted (and says so in words, not only colour).
import { Badge, Button, Revealed, cx } from '@/components/ui';
import type { Rule } from '@/lib/policy/types';
import { ruleName } from '@/lib/client/policy-edit';
import { clipText, revealText } from '@/lib/client/reveal';

const clip = (text: string, max = 80) => (text.length > max ? `${clipText(text, max)}…` : text);

export interface RuleRowProps {
  rule: Rule;
  index: number;
  deciding: boolean;
  disabled: boolean;
  onEdit: (index: number) => void;
  onDelete: (index: number) => void;
}

export function RuleRow({ rule, index, deciding, disabled, onEdit, onDelete }: RuleRowProps) {
  // The buttons' accessible names take the name as a string: with its tokens, never a raw control.
  const name = revealText(ruleName(rule, index));
  const params = Object.entries(rule.params ?? {});
  return (
    <tr className={cx(deciding && 'rules-row--deciding')} aria-current={deciding ? 'true' : undefined}>
      <td>
        <div className="rules-row__name">
          <Revealed text={ruleName(rule, index)} />
        </div>
        {deciding && <Badge tone="warning">Deciding rule</Badge>}
        {rule.description && (
          <p className="rules-muted">
            <Revealed text={clip(rule.description, 120)} />
          </p>
        )}
      </td>
      <td data-label="Action">
        <Badge>{rule.action}</Badge>
        {rule.once && <p className="rules-muted">once</p>}
      </td>
      <td data-label="Tool">
        <code className="rules-code">
          <Revealed text={rule.tool} />
        </code>
      </td>
      <td data-label="Agent">
        {rule.agent ? (
          <code className="rules-code">
            <Revealed text={rule.agent} />
          </code>
        ) : (
          <span className="rules-muted">any</span>
        )}
      </td>
      <td data-label="Params">
        {params.length === 0 ? (
          <span className="rules-muted">any</span>
        ) : (
          <ul className="rules-list">
            {params.map(([key, pattern]) => (
              <li key={key}>
                <Revealed text={key} />:{' '}
                <code className="rules-code">
                  <Revealed text={pattern} />
                </code>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td data-label="Conditions">
        {(rule.when ?? []).length === 0 ? (
          <span className="rules-muted">none</span>
        ) : (
          <ul className="rules-list">
            {(rule.when ?? []).map((c, i) => (
              <li key={i} title={revealText(c.value)}>
                <Revealed text={c.key} /> {c.op}{' '}
                <code className="rules-code">
                  <Revealed text={clip(c.value)} />
                </code>
              </li>
            ))}
          </ul>
        )}
      </td>
      <td data-label="Timeout">
        {rule.timeoutS === undefined ? (
          <span className="rules-muted">none</span>
        ) : (
          `${rule.timeoutS} s${rule.onTimeout ? ', then deny' : ''}`
        )}
        {rule.approvals && (
          <div className="rules-muted">{`needs ${rule.approvals.count} approver${rule.approvals.count === 1 ? '' : 's'}${rule.approvals.roles ? ` (${rule.approvals.roles.join(', ')})` : ''}`}</div>
        )}
      </td>
      <td>
        <div className="rules-row__actions">
          <Button size="sm" onClick={() => onEdit(index)} disabled={disabled} aria-label={`Edit rule ${name}`}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onDelete(index)}
            disabled={disabled}
            aria-label={`Delete rule ${name}`}
          >
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}
