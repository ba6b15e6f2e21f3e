// Time left before an approval expires: the visible text ticks every second, while the live
// region speaks only at a few moments (on open, each minute, 30 s, 10 s, expiry), so a screen
// reader is not interrupted every second.
'use client';
import { useEffect, useState } from 'react';
import { cx } from '@/components/ui';

function format(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${m}:${String(s).padStart(2, '0')}` : `${s} s`;
}

function announcement(seconds: number): string | undefined {
  if (seconds <= 0) return 'The approval has timed out';
  if (seconds === 10 || seconds === 30) return `${seconds} seconds left to decide`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'} left to decide`;
  return undefined;
}

export function Countdown({ expiresAt }: { expiresAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  const [spoken, setSpoken] = useState(
    () => `${format(Math.max(0, Math.ceil((expiresAt - Date.now()) / 1000)))} left to decide`,
  );
  const seconds = Math.max(0, Math.ceil((expiresAt - now) / 1000));

  useEffect(() => {
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      const said = announcement(Math.max(0, Math.ceil((expiresAt - t) / 1000)));
      if (said) setSpoken(said);
    }, 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);

  return (
    <span className={cx('approval-countdown', seconds <= 10 && 'approval-countdown--soon')}>
      <span aria-hidden="true">{seconds > 0 ? `Expires in ${format(seconds)}` : 'Expiring…'}</span>
      <span className="ui-visually-hidden" role="status" aria-live="polite">
        {spoken}
      </span>
    </span>
  );
}
