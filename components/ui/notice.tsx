// Inline notices: errors from the API, conflicts, short "decided elsewhere" messages. `role`
// makes them announced: alert for errors, status for the rest.
import type { ReactNode } from 'react';
import { cx } from './button';

export function Notice({
  tone = 'info',
  children,
  className,
}: {
  tone?: 'info' | 'success' | 'warning' | 'danger';
  children: ReactNode;
  className?: string;
}) {
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={cx('ui-notice', `ui-notice--${tone}`, className)}>
      {children}
    </div>
  );
}
