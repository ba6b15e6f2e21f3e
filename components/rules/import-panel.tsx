// Import: paste or upload a policy in any format the server reads, preview the conversion (dry
// run, nothing saved) with what it would change against the version on screen, then replace the
// policy only after a confirmation that repeats the diff's summary and any safety denies it drops.
'use client';
import { useId, useState, type ChangeEvent } from 'react';
import { Button, Dialog, JsonView, Notice, TextArea } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { conflictVersion, useImportPolicy, usePreviewImport, type StoredPolicy } from '@/lib/client/policy';
import { diffPolicies, type PolicyDiff } from '@/lib/policy/diff';
import type { Policy } from '@/lib/policy/types';
import { diffSummary, ImportDiff } from './import-diff';

const FORMATS_HINT =
  'JSON in any format the server reads: the canonical { defaultAction, rules }, the seeds’ { allowlist, deny, allowOnce }, snake_case { default_action, rules: [{ tool, action, timeout_s }] }, or a Claude Code settings.json ({ permissions: { allow, ask, deny } }).';

function describeError(error: unknown): string {
  if (error instanceof ApiError && error.fields.length > 0) {
    return error.fields.map((f) => `${f.path || '(document)'}: ${f.message}`).join('; ');
  }
  return error instanceof Error ? error.message : 'The request failed';
}

export function ImportPanel({ current, onConflict }: { current: StoredPolicy; onConflict: (version: number) => void }) {
  const fileId = useId();
  const preview = usePreviewImport();
  const save = useImportPolicy();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [converted, setConverted] = useState<{
    text: string;
    policy: Policy;
    base: StoredPolicy;
    diff: PolicyDiff;
  } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string>();

  function edit(next: string) {
    setText(next);
    setConverted(null);
    setError(undefined);
    setDone(undefined);
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) edit(await file.text());
  }

  async function runPreview() {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      setError(`Not valid JSON: ${(e as Error).message}`);
      return;
    }
    try {
      const base = current;
      const policy = await preview.mutateAsync(doc);
      setConverted({ text, policy, base, diff: diffPolicies(base.policy, policy) });
      setError(undefined);
    } catch (e) {
      setConverted(null);
      setError(describeError(e));
    }
  }

  async function runImport() {
    setConfirming(false);
    if (!converted) return;
    try {
      const saved = await save.mutateAsync({ doc: JSON.parse(converted.text), version: converted.base.version });
      setDone(`Imported ${converted.policy.rules.length} rules as version ${saved.version}.`);
      setText('');
      setConverted(null);
    } catch (e) {
      const conflict = conflictVersion(e);
      if (conflict !== undefined) onConflict(conflict);
      else setError(describeError(e));
    }
  }

  return (
    <div className="rules-stack">
      <h3 className="rules-form__title">Import</h3>
      <TextArea
        label="Policy to import"
        value={text}
        rows={6}
        spellCheck={false}
        hint={FORMATS_HINT}
        error={error}
        onChange={(e) => edit(e.target.value)}
      />
      <div className="ui-field">
        <label htmlFor={fileId} className="ui-field__label">
          Or upload a policy file
        </label>
        <input id={fileId} type="file" accept=".json,application/json" className="rules-file" onChange={upload} />
      </div>
      <div className="rules-actions">
        <Button onClick={runPreview} disabled={!text.trim() || preview.isPending}>
          Preview import
        </Button>
        <Button variant="primary" onClick={() => setConfirming(true)} disabled={!converted || save.isPending}>
          Import as new version
        </Button>
      </div>
      {converted && (
        <>
          <Notice>
            Preview: {converted.policy.rules.length} rules, default action {converted.policy.defaultAction}. Nothing is
            saved until you import; the import replaces all rules of version {converted.base.version}.
          </Notice>
          <ImportDiff diff={converted.diff} />
          <JsonView value={converted.policy} label="Converted policy" limit={1_000_000} />
        </>
      )}
      <Dialog
        open={confirming && converted !== null}
        title="Replace the rules with the import?"
        description={
          converted
            ? `All rules of version ${converted.base.version} are replaced: ${diffSummary(converted.diff)}`
            : undefined
        }
        onCancel={() => setConfirming(false)}
        footer={
          <>
            <Button onClick={() => setConfirming(false)}>Cancel</Button>
            <Button variant="danger" onClick={runImport}>
              Replace the rules
            </Button>
          </>
        }
      >
        {converted && converted.diff.safetyDeniesLost.length > 0 ? (
          <Notice tone="warning">
            It removes {converted.diff.safetyDeniesLost.length} built-in safety deny rule
            {converted.diff.safetyDeniesLost.length === 1 ? '' : 's'}:{' '}
            {converted.diff.safetyDeniesLost.map((r) => r.id).join(', ')}.
          </Notice>
        ) : (
          <p className="rules-muted">You can restore the current version from the history.</p>
        )}
      </Dialog>
      {done && <Notice tone="success">{done}</Notice>}
    </div>
  );
}
