// A plain data table with a caption (for screen readers) that scrolls sideways on a phone.
import type { ReactNode, TableHTMLAttributes } from 'react';
import { cx } from './button';

export function Table({ caption, className, children, ...rest }: TableHTMLAttributes<HTMLTableElement> & { caption: ReactNode }) {
  return (
    <div className="ui-table-wrap">
      <table className={cx('ui-table', className)} {...rest}>
        <caption className="ui-visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
