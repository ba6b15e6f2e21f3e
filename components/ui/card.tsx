// A bordered surface for grouping: tool-call cards, panels on the admin pages.
import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './button';

export function Card({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section className={cx('ui-card', className)} {...rest} />;
}

export function CardHeader({
  title,
  actions,
  level = 2,
  id,
}: {
  title: ReactNode;
  actions?: ReactNode;
  level?: 2 | 3;
  id?: string;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="ui-card__header">
      <Heading id={id} className="ui-card__title">
        {title}
      </Heading>
      {actions && <div className="ui-card__actions">{actions}</div>}
    </div>
  );
}
