// Pretty JSON with long string values truncated behind a "Show all" toggle, so a 2 MB file write
// does not flood the screen but can still be read in full.
'use client';
import { useState } from 'react';
import { Button } from './button';

const LIMIT = 600;

export function JsonView({ value, label = 'Parameters', limit = LIMIT }: { value: unknown; label?: string; limit?: number }) {
  const [full, setFull] = useState(false);
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  const long = text.length > limit;
  return (
    <div className="ui-json">
      <pre className="ui-code" aria-label={label} tabIndex={0}>
        {long && !full ? `${text.slice(0, limit)}…` : text}
      </pre>
      {long && (
        <Button size="sm" variant="ghost" onClick={() => setFull((f) => !f)} aria-expanded={full}>
          {full ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
        </Button>
      )}
    </div>
  );
}
