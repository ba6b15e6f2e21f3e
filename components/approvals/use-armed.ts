// No accidental approvals: the decision keys and buttons of the dialog are ignored for a short
// while after a call appears and after each decision, so a key pressed twice (or a double click)
// decides one call, never the next one that just took its place. The while lasts until the
// keyboard has been quiet for ARM_DELAY_MS: a dialog that opens while someone is typing elsewhere
// (the message box) takes focus, and their next letters ("yes", "any", "no") must not decide it.
// `armed` is also shown on the dialog (`data-armed`), which tests wait on instead of sleeping.
'use client';
import { useCallback, useEffect, useRef, useState } from 'react';

export const ARM_DELAY_MS = 500;

export function useArmed(): { armed: boolean; isArmed: () => boolean; disarm: () => void } {
  const [armed, setArmed] = useState(false);
  // Read by the key handler: a second key press in the same frame sees the disarm at once.
  const armedNow = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const wait = useCallback(() => {
    armedNow.current = false;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      armedNow.current = true;
      setArmed(true);
    }, ARM_DELAY_MS);
  }, []);
  const disarm = useCallback(() => {
    setArmed(false);
    wait();
  }, [wait]);

  useEffect(() => {
    wait();
    // Capture on window: runs before the dialog's own key handler, so a key that restarts the
    // wait is never also taken as a decision.
    const typing = () => {
      if (!armedNow.current) disarm();
    };
    window.addEventListener('keydown', typing, true);
    return () => {
      window.removeEventListener('keydown', typing, true);
      clearTimeout(timer.current);
    };
  }, [wait, disarm]);

  return { armed, isArmed: useCallback(() => armedNow.current, []), disarm };
}
