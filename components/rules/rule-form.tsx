// Adding or editing one rule. Validates with the engine's RuleSchema before sending, and shows the
// server's field errors (e.g. a pattern that does not compile) on the input they belong to.
'use client';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Notice, SelectField, TextArea, TextField } from '@/components/ui';
import { fieldErrors, valuesToRule, type FieldErrors, type Issue, type RuleFormValues } from '@/lib/client/policy-edit';
import type { Action, Rule } from '@/lib/policy/types';
import { ACTION_OPTIONS, KNOWN_TOOLS } from './constants';
import { ConditionRows, ParamRows } from './rule-form-rows';

/** What went wrong with a save, as the form can show it (a conflict is shown by the page). */
export type SaveProblem = { issues: Issue[]; prefix: string } | { message: string } | { conflict: true };

export interface RuleFormProps {
  title: string;
  initial: RuleFormValues;
  onSave: (rule: Rule) => Promise<SaveProblem | undefined>;
  onCancel: () => void;
}

export function RuleForm({ title, initial, onSave, onCancel }: RuleFormProps) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const set = (patch: Partial<RuleFormValues>) => setValues((v) => ({ ...v, ...patch }));

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  // Take the user to the first field that needs fixing (or the form's own error).
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? headingRef.current;
    first?.focus();
  }, [errors]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const built = valuesToRule(values);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    const problem = await onSave(built.rule);
    setSaving(false);
    if (!problem || 'conflict' in problem) return;
    setErrors('message' in problem ? { form: problem.message } : fieldErrors(problem.issues, problem.prefix, values));
  }

  return (
    <form ref={formRef} className="rules-form" onSubmit={submit} noValidate aria-labelledby="rule-form-title">
      <h3 id="rule-form-title" className="rules-form__title" ref={headingRef} tabIndex={-1}>
        {title}
      </h3>
      {errors.form && <Notice tone="danger">{errors.form}</Notice>}
      <div className="rules-form__grid">
        <SelectField
          label="Action"
          value={values.action}
          options={ACTION_OPTIONS}
          error={errors.action}
          onChange={(e) => set({ action: e.target.value as Action })}
        />
        <TextField
          label="Tool"
          value={values.tool}
          error={errors.tool}
          hint="Tool name; * matches any characters."
          list="rule-form-tools"
          onChange={(e) => set({ tool: e.target.value })}
          autoComplete="off"
          required
        />
        <TextField
          label="Agent"
          value={values.agent}
          error={errors.agent}
          hint="Glob over the agent name; empty for any agent."
          onChange={(e) => set({ agent: e.target.value })}
          autoComplete="off"
        />
        <TextField
          label="Timeout (seconds)"
          inputMode="numeric"
          value={values.timeoutS}
          error={errors.timeoutS}
          hint="How long an ask waits before it is denied."
          onChange={(e) => set({ timeoutS: e.target.value })}
        />
        {values.action === 'ask' && (
          <>
            <TextField
              label="Approvals needed"
              inputMode="numeric"
              value={values.approvals}
              error={errors.approvals}
              hint="People who must approve (1 to 5); one denial denies."
              onChange={(e) => set({ approvals: e.target.value })}
            />
            <TextField
              label="Roles that may approve"
              value={values.approvalRoles}
              error={errors.approvalRoles}
              hint="Comma-separated (admin, approver, user); empty: approver or admin."
              onChange={(e) => set({ approvalRoles: e.target.value })}
              autoComplete="off"
            />
          </>
        )}
        <TextField
          label="Rule ID"
          value={values.id}
          error={errors.id}
          hint="Optional name shown in decisions."
          onChange={(e) => set({ id: e.target.value })}
          autoComplete="off"
        />
      </div>
      <datalist id="rule-form-tools">
        {KNOWN_TOOLS.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <ParamRows tool={values.tool} rows={values.params} errors={errors} onChange={(params) => set({ params })} />
      <ConditionRows rows={values.conditions} errors={errors} onChange={(conditions) => set({ conditions })} />
      <TextArea
        label="Description"
        value={values.description}
        error={errors.description}
        rows={2}
        onChange={(e) => set({ description: e.target.value })}
      />
      <label className="rules-form__check">
        <input type="checkbox" checked={values.once} onChange={(e) => set({ once: e.target.checked })} />
        Allow once (an allow rule used up by the first call it decides)
      </label>
      <div className="rules-form__actions">
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save rule'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
