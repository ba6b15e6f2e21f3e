// Pretty JSON where each string value longer than `limit` is shortened on its own, behind its own
// "Show all" toggle, so a 2 MB file write neither floods the screen nor hides the keys and the
// values around it, and can still be read in full. Invisible characters (JSON leaves U+202E and
// zero-width characters as they are) are shown as tokens, left to right (Revealed).
'use client';
import { useMemo, useState } from 'react';
import { jsonPieces, type JsonLongString } from '@/lib/client/json-pieces';
import { Button } from './button';
import { Revealed } from './revealed';

const LIMIT = 600;

export function JsonView({
  value,
  label = 'Parameters',
  limit = LIMIT,
}: {
  value: unknown;
  label?: string;
  limit?: number;
}) {
  const pieces = useMemo(() => jsonPieces(value, limit), [value, limit]);
  return (
    <div className="ui-json">
      <pre className="ui-code" aria-label={label} tabIndex={0} dir="ltr">
        {pieces.map((piece, i) =>
          piece.kind === 'text' ? <Revealed key={i} text={piece.text} /> : <LongString key={i} piece={piece} />,
        )}
      </pre>
    </div>
  );
}

function LongString({ piece }: { piece: JsonLongString }) {
  const [full, setFull] = useState(false);
  const of = piece.path ? ` of ${piece.path}` : '';
  return (
    <>
      <Revealed text={full ? piece.full : piece.short} />
      {`${piece.after} `}
      <Button
        size="sm"
        variant="ghost"
        className="ui-json-toggle"
        onClick={() => setFull((f) => !f)}
        aria-expanded={full}
      >
        {full ? `Show less${of}` : `Show all${of} (${piece.length.toLocaleString()} characters)`}
      </Button>
    </>
  );
}
