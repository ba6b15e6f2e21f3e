// The explicit control for browser notifications (never asked on page load). Says plainly when the
// platform has none or the permission was refused: the inbox works the same without them.
'use client';
import { useState, useSyncExternalStore } from 'react';
import { Button, Notice } from '@/components/ui';
import {
  disableNotifications,
  enableNotifications,
  notificationsWanted,
  support,
  type NotificationSupport,
} from '@/lib/client/notifications';

const noSubscription = () => () => undefined;

export function NotificationsControl() {
  // Read in the browser only: the server has no Notification API and no localStorage.
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [changed, setState] = useState<{ support: NotificationSupport; on: boolean }>();
  const state = changed ?? (inBrowser ? { support: support(), on: notificationsWanted() } : undefined);
  if (!state) return null;
  if (state.support === 'unsupported')
    return (
      <Notice>
        This browser offers no notifications here (some phones, or a page served over plain http). The inbox below still
        updates by itself.
      </Notice>
    );
  if (state.support === 'denied')
    return (
      <Notice tone="warning">
        Notifications are blocked for this site in the browser&apos;s settings. The inbox below still updates by itself.
      </Notice>
    );
  const on = state.on && state.support === 'granted';
  return (
    <div className="inbox-notify">
      <p>
        {on
          ? 'Notifications are on: a new approval shows one while this tab is hidden.'
          : 'Get a notification for each new approval while Gatehouse is in the background.'}
      </p>
      <Button
        onClick={async () => {
          if (on) {
            disableNotifications();
            setState({ support: support(), on: false });
            return;
          }
          const result = await enableNotifications();
          setState({ support: result, on: result === 'granted' });
        }}
      >
        {on ? 'Turn off notifications' : 'Turn on notifications'}
      </Button>
    </div>
  );
}
