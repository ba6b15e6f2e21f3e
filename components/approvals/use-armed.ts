// No accidental approvals: the decision keys and buttons of the dialog are ignored for a short
// while after a call appears and after each decision, so a key pressed twice (or a double click)
// decides one call, never the next one that just took its place. `armed` is also shown on the
// dialog (`data-armed`), which tests wait on instead of sleeping.
'use client';
import { useCallback, useEffect, useRef, useState } from 'react';

export const ARM_DELAY_MS = 500;

export function useArmed(): { armed: boolean; isArmed: () => boolean; disarm: () => void } {
  // Each disarm starts a new epoch; the dialog is armed once the current epoch's delay has passed.
  const [epoch, setEpoch] = useState(0);
  const [armedEpoch, setArmedEpoch] = useState(-1);
  // Read by the key handler: a second key press in the same frame sees the disarm at once.
  const armedNow = useRef(false);

  useEffect(() => {
    const timer = setTimeout(() => {
      armedNow.current = true;
      setArmedEpoch(epoch);
    }, ARM_DELAY_MS);
    return () => clearTimeout(timer);
  }, [epoch]);

  const disarm = useCallback(() => {
    armedNow.current = false;
    setEpoch((e) => e + 1);
  }, []);
  return { armed: armedEpoch === epoch, isArmed: useCallback(() => armedNow.current, []), disarm };
}
