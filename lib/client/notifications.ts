// Browser notifications for new approvals: asked for only from an explicit control, remembered
// per browser, raised only for relays not seen before and only while the tab is hidden. Where the
// platform has no Notification API (some phones, plain http) `support()` says so and nothing is raised.
import type { InboxRelay } from '@/lib/contract';
import { headlineOf } from './approval-headline';

const KEY = 'gatehouse.notifications';

export type NotificationSupport = 'unsupported' | 'denied' | 'default' | 'granted';

export function support(): NotificationSupport {
  if (typeof window === 'undefined' || !('Notification' in window)) return 'unsupported';
  return window.Notification.permission;
}

export const notificationsWanted = () => typeof localStorage !== 'undefined' && localStorage.getItem(KEY) === 'on';

export async function enableNotifications(): Promise<NotificationSupport> {
  if (support() === 'unsupported') return 'unsupported';
  const permission = await window.Notification.requestPermission();
  if (permission === 'granted') localStorage.setItem(KEY, 'on');
  return permission;
}

export const disableNotifications = () => localStorage.removeItem(KEY);

/** Raises one notification for a relay; clicking it opens the relay's approval page. */
export function notifyRelay(relay: InboxRelay, open: (href: string) => void): void {
  const { request } = relay;
  const { verb, object } = headlineOf(request);
  const notification = new window.Notification(`Approval needed: ${request.tool}`, {
    body: `${request.tool} ${verb}${object === undefined ? '' : ` ${object}`}\nAgent: ${request.agentId}`,
    tag: request.id,
  });
  notification.onclick = () => {
    window.focus();
    open(`/approvals/${encodeURIComponent(request.id)}`);
    notification.close();
  };
}
