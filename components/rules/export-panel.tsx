// Export: the current policy as canonical JSON, to download or read on the page. What is exported
// imports again to the same rules.
'use client';
import { useState } from 'react';
import { Button, JsonView } from '@/components/ui';
import type { StoredPolicy } from '@/lib/client/policy';

function download(current: StoredPolicy) {
  const blob = new Blob([`${JSON.stringify(current.policy, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `gatehouse-policy-v${current.version}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled, or some browsers cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ExportPanel({ current }: { current: StoredPolicy }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="rules-stack">
      <h3 className="rules-form__title">Export</h3>
      <div className="rules-actions">
        <Button onClick={() => download(current)}>Download JSON</Button>
        <Button onClick={() => setShown((s) => !s)} aria-expanded={shown}>
          {shown ? 'Hide JSON' : 'Show JSON'}
        </Button>
        <span className="rules-muted">Version {current.version}</span>
      </div>
      {shown && <JsonView value={current.policy} label="Current policy (JSON)" limit={1_000_000} />}
    </div>
  );
}
