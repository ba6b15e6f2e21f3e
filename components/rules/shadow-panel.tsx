// Shadow mode: a candidate policy judged beside the live one on every real call, without any
// effect on the outcome. Set it from the live rules (then edit) or a pasted or uploaded policy in
// any importable format, see where it would decide differently, then promote it to live (based on
// the live version on screen: a newer save is a conflict) or clear it.
'use client';
import { useId, useState, type ChangeEvent } from 'react';
import { Button, Card, CardHeader, Dialog, Notice, TextArea } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { conflictVersion, type StoredPolicy } from '@/lib/client/policy';
import { useClearShadow, usePromoteShadow, useSetShadow, useShadow, useShadowDiffs } from '@/lib/client/shadow';
import { ShadowDiffsView } from './shadow-diffs';

function describeError(error: unknown): string {
  if (error instanceof ApiError && error.fields.length > 0)
    return error.fields.map((f) => `${f.path || '(document)'}: ${f.message}`).join('; ');
  return error instanceof Error ? error.message : 'The request failed';
}

export function ShadowPanel({ current, onConflict }: { current: StoredPolicy; onConflict: (version: number) => void }) {
  const fileId = useId();
  const shadow = useShadow();
  const diffs = useShadowDiffs(shadow.data?.id);
  const set = useSetShadow();
  const clear = useClearShadow();
  const promote = usePromoteShadow();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState<string>();
  const [confirming, setConfirming] = useState(false);

  function edit(next: string) {
    setText(next);
    setError(undefined);
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) edit(await file.text());
  }

  async function submit() {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      setError(`Not valid JSON: ${(e as Error).message}`);
      return;
    }
    try {
      const saved = await set.mutateAsync({ doc });
      setMessage(
        `Shadow set: ${saved.policy.rules.length} rules, compared with live version ${saved.baseVersion} from now on.`,
      );
      setText('');
    } catch (e) {
      setError(describeError(e));
    }
  }

  async function runPromote() {
    setConfirming(false);
    // The shadow whose differences were shown: another admin's newer shadow is never promoted unseen.
    const id = shadow.data?.id;
    if (!id) return;
    try {
      const saved = await promote.mutateAsync({ version: current.version, id });
      setMessage(`The shadow is now the live policy, version ${saved.version}.`);
    } catch (e) {
      const conflict = conflictVersion(e);
      if (conflict !== undefined) onConflict(conflict);
      else setMessage(describeError(e));
    }
  }

  async function runClear(id: string) {
    try {
      await clear.mutateAsync(id);
      setMessage('Shadow cleared.');
    } catch (e) {
      setMessage(describeError(e));
    }
  }

  const active = shadow.data;
  return (
    <Card aria-labelledby="shadow-heading">
      <CardHeader id="shadow-heading" title="Shadow policy" />
      <p className="rules-muted">
        A shadow policy is evaluated beside the live rules on every real call and never changes the outcome; the calls
        it would decide differently are listed here.
      </p>
      {message && <Notice tone="success">{message}</Notice>}
      {shadow.isError && <Notice tone="danger">Could not load the shadow: {shadow.error.message}</Notice>}
      {active && (
        <div className="rules-stack">
          <p className="rules-muted">
            Shadow with {active.policy.rules.length} rules, set by {active.createdBy} on{' '}
            {new Date(active.createdAt).toLocaleString()} against live version {active.baseVersion}
            {active.baseVersion !== current.version ? ` (live is now version ${current.version})` : ''}.
          </p>
          <div className="rules-actions">
            <Button variant="primary" onClick={() => setConfirming(true)} disabled={promote.isPending}>
              Promote to live
            </Button>
            <Button onClick={() => runClear(active.id)} disabled={clear.isPending}>
              Clear shadow
            </Button>
          </div>
          {diffs.isError && <Notice tone="danger">Could not load the differences: {diffs.error.message}</Notice>}
          {diffs.data && (
            <ShadowDiffsView diffs={diffs.data} onRefresh={() => void diffs.refetch()} refreshing={diffs.isFetching} />
          )}
        </div>
      )}
      <div className="rules-stack">
        <h3 className="rules-form__title">{active ? 'Replace the shadow' : 'Set a shadow'}</h3>
        <TextArea
          label="Shadow policy"
          value={text}
          rows={6}
          spellCheck={false}
          error={error}
          hint="JSON in any format the import reads. Setting a shadow replaces the previous one and its differences."
          onChange={(e) => edit(e.target.value)}
        />
        <div className="ui-field">
          <label htmlFor={fileId} className="ui-field__label">
            Or upload a shadow policy file
          </label>
          <input id={fileId} type="file" accept=".json,application/json" className="rules-file" onChange={upload} />
        </div>
        <div className="rules-actions">
          <Button onClick={() => edit(JSON.stringify(current.policy, null, 2))}>Start from the live rules</Button>
          <Button variant="primary" onClick={submit} disabled={!text.trim() || set.isPending}>
            Set as shadow
          </Button>
        </div>
      </div>
      <Dialog
        open={confirming}
        title="Promote the shadow to live?"
        description={`The shadow replaces the rules of version ${current.version} in a new version; you can restore the old one from the history.`}
        onCancel={() => setConfirming(false)}
        footer={
          <>
            <Button onClick={() => setConfirming(false)}>Cancel</Button>
            <Button variant="primary" onClick={runPromote}>
              Promote
            </Button>
          </>
        }
      >
        {active && (
          <p className="rules-muted">
            The shadow was set against version {active.baseVersion} by {active.createdBy}.
          </p>
        )}
      </Dialog>
    </Card>
  );
}
