// The Tests panel's "add a test" form: a call (tool, agent, params as JSON), the mode it runs in,
// and the decision it must get. Validated with the engine's own schema before it joins the list.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Notice, SelectField, TextArea, TextField } from '@/components/ui';
import { emptyTestValues, valuesToTest, type TestFormErrors, type TestFormValues } from '@/lib/client/policy-tests';
import type { Action, Mode, PolicyTest } from '@/lib/policy/types';
import { ACTION_OPTIONS, KNOWN_TOOLS, MODE_OPTIONS } from './constants';

export function PolicyTestForm({ onAdd, onCancel }: { onAdd: (test: PolicyTest) => void; onCancel: () => void }) {
  const [values, setValues] = useState<TestFormValues>(emptyTestValues);
  const [errors, setErrors] = useState<TestFormErrors>({});
  const set = (patch: Partial<TestFormValues>) => setValues((v) => ({ ...v, ...patch }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = valuesToTest(values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    onAdd(result.test);
  }

  return (
    <form className="rules-form" onSubmit={submit} noValidate aria-labelledby="policy-test-form-title">
      <h3 id="policy-test-form-title" className="rules-form__title">
        Add a test
      </h3>
      <div className="rules-form__grid">
        <TextField
          label="Test name"
          value={values.name}
          hint="Optional."
          error={errors.name}
          onChange={(e) => set({ name: e.target.value })}
          autoComplete="off"
        />
        <TextField
          label="Tool"
          value={values.tool}
          list="policy-test-tools"
          error={errors.tool}
          onChange={(e) => set({ tool: e.target.value })}
          autoComplete="off"
        />
        <TextField
          label="Agent"
          value={values.agent}
          placeholder="main"
          hint="Empty: the main agent."
          error={errors.agent}
          onChange={(e) => set({ agent: e.target.value })}
          autoComplete="off"
        />
        <SelectField
          label="Mode"
          value={values.mode}
          options={MODE_OPTIONS}
          onChange={(e) => set({ mode: e.target.value as Mode })}
        />
        <SelectField
          label="Expected decision"
          value={values.expect}
          options={ACTION_OPTIONS}
          onChange={(e) => set({ expect: e.target.value as Action })}
        />
      </div>
      <datalist id="policy-test-tools">
        {KNOWN_TOOLS.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <TextArea
        label="Call params (JSON)"
        value={values.params}
        rows={3}
        spellCheck={false}
        error={errors.params}
        onChange={(e) => set({ params: e.target.value })}
      />
      {errors.form && <Notice tone="danger">{errors.form}</Notice>}
      <div className="rules-form__actions">
        <Button type="submit" variant="primary">
          Add test
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
