// Small status labels: actions (allow/deny/ask), run and call statuses, risk levels.
import type { ReactNode } from 'react';
import { cx } from './button';

export type BadgeTone = 'neutral' | 'success' | 'danger' | 'warning' | 'info';

const TONE_BY_WORD: Record<string, BadgeTone> = {
  allow: 'success',
  approved: 'success',
  done: 'success',
  deny: 'danger',
  denied: 'danger',
  failed: 'danger',
  destructive: 'danger',
  ask: 'warning',
  waiting: 'warning',
  'waiting for approval': 'warning',
  write: 'warning',
  expired: 'neutral',
  cancelled: 'neutral',
  running: 'info',
  read_only: 'info',
};

/** The tone a status word gets everywhere, so "deny" looks the same on every page. */
export function toneFor(word: string): BadgeTone {
  return TONE_BY_WORD[word] ?? 'neutral';
}

export function Badge({ tone, children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  const resolved = tone ?? (typeof children === 'string' ? toneFor(children) : 'neutral');
  return <span className={cx('ui-badge', `ui-badge--${resolved}`, className)}>{children}</span>;
}
