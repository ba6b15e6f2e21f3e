// The audit filter form. Uncontrolled on purpose: the URL holds the applied filter, and the
// parent remounts this form (key) whenever the URL changes, so the fields always show it.
'use client';
import type { FormEvent } from 'react';
import { Button, SelectField, TextField } from '@/components/ui';
import { AUDIT_ACTIONS, AUDIT_KINDS, type AuditAction } from '@/lib/contract';
import { fromLocalInput, toLocalInput, type AuditFilter } from '@/lib/client/audit';

const ACTION_OPTIONS = [{ value: '', label: 'Any action' }, ...AUDIT_ACTIONS.map((a) => ({ value: a, label: a }))];
const KIND_OPTIONS = [
  { value: '', label: 'Any kind' },
  ...AUDIT_KINDS.map((k) => ({ value: k, label: k.replaceAll('_', ' ') })),
];
// Humans are named by username; `policy` and `system` (timeouts, cancelled runs) decide on their own.
const WHO_SUGGESTIONS = ['policy', 'system'];

export function AuditFilters({ filter, onApply }: { filter: AuditFilter; onApply: (filter: AuditFilter) => void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim() || undefined;
    const action = text('action') as AuditAction | undefined;
    onApply({
      run: text('run'),
      tool: text('tool'),
      action,
      who: text('who'),
      kind: text('kind'),
      from: fromLocalInput(text('from') ?? ''),
      to: fromLocalInput(text('to') ?? ''),
      limit: filter.limit,
    });
  };

  return (
    <form className="audit-filters" onSubmit={submit} aria-label="Audit filters">
      <TextField
        label="Run"
        name="run"
        defaultValue={filter.run ?? ''}
        placeholder="run id"
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        label="Tool"
        name="tool"
        defaultValue={filter.tool ?? ''}
        placeholder="e.g. bash"
        autoComplete="off"
        spellCheck={false}
      />
      <SelectField label="Action" name="action" defaultValue={filter.action ?? ''} options={ACTION_OPTIONS} />
      <TextField
        label="Who"
        name="who"
        defaultValue={filter.who ?? ''}
        placeholder="username, policy, system"
        list="audit-who-suggestions"
        autoComplete="off"
      />
      <datalist id="audit-who-suggestions">
        {WHO_SUGGESTIONS.map((who) => (
          <option key={who} value={who} />
        ))}
      </datalist>
      <SelectField label="Kind" name="kind" defaultValue={filter.kind ?? ''} options={KIND_OPTIONS} />
      <TextField
        label="From"
        name="from"
        className="audit-filters__date"
        type="datetime-local"
        defaultValue={toLocalInput(filter.from)}
      />
      <TextField
        label="To"
        name="to"
        className="audit-filters__date"
        type="datetime-local"
        defaultValue={toLocalInput(filter.to)}
      />
      <div className="audit-filters__buttons">
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        <Button type="reset" onClick={() => onApply({ limit: filter.limit })}>
          Clear filters
        </Button>
      </div>
    </form>
  );
}
