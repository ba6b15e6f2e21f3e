// Where focus goes when the approval queue empties: back to what the user was on before the
// dialog opened (or the message box), never lost on <body>.
'use client';
import { useEffect, useRef } from 'react';

export function useFocusReturn(open: boolean) {
  const lastOutside = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    const track = (event: FocusEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && !target.closest('dialog')) lastOutside.current = target;
    };
    document.addEventListener('focusin', track);
    return () => document.removeEventListener('focusin', track);
  }, []);

  useEffect(() => {
    if (wasOpen.current && !open) {
      const target = lastOutside.current?.isConnected
        ? lastOutside.current
        : document.querySelector<HTMLElement>('textarea');
      target?.focus();
    }
    wasOpen.current = open;
  }, [open]);
}
