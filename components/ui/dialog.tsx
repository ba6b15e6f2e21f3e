// The accessible modal: the native <dialog> opened with showModal(), so the browser traps focus,
// makes the rest of the page inert and handles Escape. Labelled by its title; Escape and the
// close request are routed to `onCancel` so the caller decides what closing means.
'use client';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cx } from './button';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  onCancel: () => void;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
  onKeyDown?: (event: React.KeyboardEvent<HTMLDialogElement>) => void;
  /** `data-*` attributes of the dialog element (state that tests and styles read, e.g. `armed`). */
  data?: Record<string, string>;
}

export function Dialog({
  open,
  title,
  description,
  onCancel,
  children,
  footer,
  className,
  onKeyDown,
  data,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={cx('ui-dialog', className)}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        // Escape: let the caller decide (e.g. deny), never close silently.
        event.preventDefault();
        onCancel();
      }}
      onKeyDown={onKeyDown}
      {...Object.fromEntries(Object.entries(data ?? {}).map(([key, value]) => [`data-${key}`, value]))}
    >
      {open && (
        <div className="ui-dialog__body">
          <h2 id={titleId} className="ui-dialog__title">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="ui-dialog__description">
              {description}
            </div>
          )}
          <div className="ui-dialog__content">{children}</div>
          {footer && <div className="ui-dialog__footer">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}
