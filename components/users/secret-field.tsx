// A secret shown once (a new API token, a sign-in link): read-only, selected on focus, with Copy.
// "Copied" is announced; when the clipboard is not available the text stays selectable.
'use client';
import { useState } from 'react';
import { Button, TextField } from '@/components/ui';

export function SecretField({ label, value, hint }: { label: string; value: string; hint: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // Insecure origins and some browsers refuse the clipboard: the field is still selectable.
      setCopied('failed');
    }
  }

  return (
    <div className="users-secret">
      <TextField
        label={label}
        value={value}
        readOnly
        hint={hint}
        className="users-secret__field"
        onFocus={(e) => e.currentTarget.select()}
        spellCheck={false}
      />
      <div className="users-secret__actions">
        <Button size="sm" onClick={copy}>
          Copy
        </Button>
        <span role="status" className="users-muted">
          {copied === 'yes'
            ? 'Copied'
            : copied === 'failed'
              ? 'Copy is not available here: select the text and copy it'
              : ''}
        </span>
      </div>
    </div>
  );
}
