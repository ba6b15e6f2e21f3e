// The repeatable parts of the rule form: parameter patterns and conditions, each row with its own
// labelled inputs and inline errors (keys like `params.0.pattern`, see lib/client/policy-edit).
import { Button, SelectField, TextField } from '@/components/ui';
import type { ConditionRow, FieldErrors, ParamRow } from '@/lib/client/policy-edit';
import { paramKindOf } from '@/lib/policy/kinds';
import type { ConditionOp } from '@/lib/policy/types';
import { KIND_HINTS, OP_OPTIONS } from './constants';

const hidden = (text: string) => <span className="ui-visually-hidden">{text} </span>;

export function ParamRows({
  tool,
  rows,
  errors,
  onChange,
}: {
  tool: string;
  rows: ParamRow[];
  errors: FieldErrors;
  onChange: (rows: ParamRow[]) => void;
}) {
  const set = (i: number, patch: Partial<ParamRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset>
      <legend>Parameters (all must match)</legend>
      {rows.length === 0 && (
        <p className="rules-muted">No parameter patterns: the rule matches any call of the tool.</p>
      )}
      {rows.map((row, i) => (
        <div key={i} className="rules-form__row">
          <TextField
            label={<>{hidden(`Parameter ${i + 1}`)}name</>}
            value={row.key}
            error={errors[`params.${i}.key`]}
            onChange={(e) => set(i, { key: e.target.value })}
            autoComplete="off"
          />
          <TextField
            label={<>{hidden(`Parameter ${i + 1}`)}pattern</>}
            value={row.pattern}
            error={errors[`params.${i}.pattern`]}
            hint={row.key.trim() ? KIND_HINTS[paramKindOf(tool.trim(), row.key.trim())] : undefined}
            onChange={(e) => set(i, { pattern: e.target.value })}
            autoComplete="off"
            spellCheck={false}
          />
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
            aria-label={`Remove parameter ${i + 1}`}
          >
            Remove
          </Button>
        </div>
      ))}
      <div>
        <Button
          size="sm"
          onClick={() => onChange([...rows, { key: rows.length === 0 ? defaultParam(tool) : '', pattern: '' }])}
        >
          Add parameter
        </Button>
      </div>
    </fieldset>
  );
}

function defaultParam(tool: string): string {
  return { bash: 'command', fetch_url: 'url' }[tool.trim()] ?? (/_file|list_files/.test(tool) ? 'path' : '');
}

export function ConditionRows({
  rows,
  errors,
  onChange,
}: {
  rows: ConditionRow[];
  errors: FieldErrors;
  onChange: (rows: ConditionRow[]) => void;
}) {
  const set = (i: number, patch: Partial<ConditionRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset>
      <legend>Conditions (all must hold)</legend>
      {rows.map((row, i) => (
        <div key={i} className="rules-form__row rules-form__row--condition">
          <TextField
            label={<>{hidden(`Condition ${i + 1}`)}key</>}
            value={row.key}
            error={errors[`conditions.${i}.key`]}
            onChange={(e) => set(i, { key: e.target.value })}
            autoComplete="off"
          />
          <SelectField
            label={<>{hidden(`Condition ${i + 1}`)}operator</>}
            value={row.op}
            error={errors[`conditions.${i}.op`]}
            options={OP_OPTIONS}
            onChange={(e) => set(i, { op: e.target.value as ConditionOp })}
          />
          <TextField
            label={<>{hidden(`Condition ${i + 1}`)}value</>}
            value={row.value}
            error={errors[`conditions.${i}.value`]}
            onChange={(e) => set(i, { value: e.target.value })}
            autoComplete="off"
            spellCheck={false}
          />
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
            aria-label={`Remove condition ${i + 1}`}
          >
            Remove
          </Button>
        </div>
      ))}
      <div>
        <Button size="sm" onClick={() => onChange([...rows, { key: '', op: 'glob', value: '' }])}>
          Add condition
        </Button>
      </div>
    </fieldset>
  );
}
