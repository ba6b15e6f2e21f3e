// A plain data table with a caption (for screen readers) that scrolls sideways on a phone.
import type { ReactNode, TableHTMLAttributes } from 'react';
import { cx } from './button';

export function Table({
  caption,
  className,
  children,
  ...rest
}: TableHTMLAttributes<HTMLTableElement> & { caption: ReactNode }) {
  // The wrapper scrolls sideways on a narrow screen, so it is a focusable, named region: keyboard
  // users can scroll it even when the table holds nothing focusable.
  return (
    // (Named "<caption> (table)", so it never repeats the name of the section around it.)
    <div
      className="ui-table-wrap"
      role="region"
      aria-label={typeof caption === 'string' ? `${caption} (table)` : 'Table'}
      tabIndex={0}
    >
      <table className={cx('ui-table', className)} {...rest}>
        <caption className="ui-visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
