// The one message for a save that lost a race: someone else saved a newer version first. Nothing
// was overwritten; Reload shows their change. Focused when it appears so it is seen and announced.
'use client';
import { useEffect, useRef } from 'react';
import { Button, Notice } from '@/components/ui';

export function ConflictNotice({ version, onReload }: { version: number; onReload: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [version]);
  const now = version >= 0 ? ` (now version ${version})` : '';
  return (
    <div ref={ref} tabIndex={-1} className="rules-conflict-wrap">
      <Notice tone="danger" className="rules-conflict">
        <span>Someone else changed the rules{now}. Reload to see their change; your edit was not saved.</span>
        <Button variant="primary" size="sm" onClick={onReload}>
          Reload
        </Button>
      </Notice>
    </div>
  );
}
