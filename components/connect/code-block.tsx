// Text to paste somewhere else (a settings file, a shell line): a read-only text box (labelled,
// selectable, scrollable from the keyboard), with Copy. "Copied" is announced; without a clipboard (an
// insecure origin) the text stays selectable.
'use client';
import { useId, useState } from 'react';
import { Button } from '@/components/ui';

export function CodeBlock({ label, text, hint }: { label: string; text: string; hint?: string }) {
  const id = useId();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div className="connect-code">
      <label htmlFor={id} className="connect-code__label">
        {label}
      </label>
      <textarea
        id={id}
        readOnly
        value={text}
        rows={Math.min(text.split('\n').length, 24)}
        spellCheck={false}
        wrap="off"
        className="connect-code__text"
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="connect-code__actions">
        <Button size="sm" onClick={copy} aria-label={`Copy ${label}`}>
          Copy
        </Button>
        {hint && <span className="connect-muted">{hint}</span>}
        <span role="status" className="connect-muted">
          {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy is not available here: select the text' : ''}
        </span>
      </div>
    </div>
  );
}
