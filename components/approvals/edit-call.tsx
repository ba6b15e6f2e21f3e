// Edit, then approve: the call's parameters as an editor. A command field for `bash`, a path and
// content editor for file writes (the diff follows the edit), JSON for any other tool. Each change
// is checked by the server as the decision would be (use-edit-check.ts): the field at fault, or the
// deny rule that forbids the edit, is shown inline. The tool itself cannot be changed.
'use client';
import { useState } from 'react';
import { Notice, TextArea, TextField } from '@/components/ui';
import type { RelayRequest } from '@/lib/contract';
import { DiffView, isDiffPreview } from './diff-view';
import type { EditCheck } from './use-edit-check';

export interface EditCallProps {
  relay: RelayRequest;
  /** The parameters being edited (starts as the call's own). */
  params: Record<string, unknown>;
  /** Undefined while the text is not a parameter object (JSON that does not parse). */
  onChange(params: Record<string, unknown> | undefined): void;
  check: EditCheck | undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function EditCall({ relay, params, onChange, check }: EditCallProps) {
  const fieldError = (name: string) =>
    check?.state === 'refused' ? check.fields?.find((f) => f.path === `response.params.${name}`)?.message : undefined;
  return (
    <section className="approval-section approval-edit" aria-label="Edit the call">
      <h3 className="approval-section__title">Edit the call</h3>
      {relay.tool === 'bash' ? (
        <TextField
          label="Command"
          value={text(params.command)}
          onChange={(e) => onChange({ ...params, command: e.target.value })}
          error={fieldError('command')}
          autoComplete="off"
          spellCheck={false}
        />
      ) : relay.tool === 'write_file' ? (
        <>
          <TextField
            label="Path"
            value={text(params.path)}
            onChange={(e) => onChange({ ...params, path: e.target.value })}
            error={fieldError('path')}
            autoComplete="off"
          />
          <TextArea
            label="Content"
            value={text(params.content)}
            rows={8}
            onChange={(e) => onChange({ ...params, content: e.target.value })}
            error={fieldError('content')}
            spellCheck={false}
          />
        </>
      ) : (
        <JsonEditor params={params} onChange={onChange} />
      )}
      <EditVerdict check={check} />
    </section>
  );
}

function JsonEditor({ params, onChange }: Pick<EditCallProps, 'params' | 'onChange'>) {
  const [source, setSource] = useState(() => JSON.stringify(params, null, 2));
  const [error, setError] = useState<string>();
  return (
    <TextArea
      label="Parameters (JSON)"
      value={source}
      rows={8}
      spellCheck={false}
      error={error}
      onChange={(e) => {
        setSource(e.target.value);
        try {
          const parsed: unknown = JSON.parse(e.target.value);
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
            throw new Error('expected an object of parameters');
          setError(undefined);
          onChange(parsed as Record<string, unknown>);
        } catch (failure) {
          setError(`Not valid JSON: ${(failure as Error).message}`);
          onChange(undefined);
        }
      }}
    />
  );
}

function EditVerdict({ check }: { check: EditCheck | undefined }) {
  if (!check) return null;
  if (check.state === 'checking')
    return (
      <p className="approval-edit__status" role="status">
        Checking the edit…
      </p>
    );
  if (check.state === 'refused') return <Notice tone="danger">{check.message}</Notice>;
  return (
    <>
      <p className="approval-edit__status" role="status">
        The edited call passes the policy; approving runs it instead of the agent’s.
      </p>
      {isDiffPreview(check.preview) && <DiffView preview={check.preview} />}
    </>
  );
}
