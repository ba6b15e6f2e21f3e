// Browser notifications for new approvals: asked for only from an explicit control, remembered
// per browser, raised only for relays not seen before and only while the tab is hidden. Where the
// platform has no Notification API (some phones, plain http) `support()` says so and nothing is raised.
import { shownRequest, type InboxRelay } from '../contract';
import { headlineOf } from './approval-headline';
import { revealText } from './reveal';

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

/**
 * Untrusted text as one line for a notification, which cannot show marks: invisible and bidi
 * characters as tokens, line breaks as ⏎ (so a command cannot forge the notification's own lines).
 */
const oneLine = (text: string) => revealText(text).replace(/\n/g, '⏎');

/** Raises one notification for a relay; clicking it opens the relay's approval page. */
export function notifyRelay(relay: InboxRelay, open: (href: string) => void): void {
  const request = shownRequest(relay);
  const { verb, object } = headlineOf(request);
  const tool = oneLine(request.tool);
  const notification = new window.Notification(`Approval needed: ${tool}`, {
    body: `${tool} ${verb}${object === undefined ? '' : ` ${oneLine(object)}`}\nAgent: ${oneLine(request.agentId)}`,
    tag: request.id,
  });
  notification.onclick = () => {
    window.focus();
    open(`/approvals/${encodeURIComponent(request.id)}`);
    notification.close();
  };
}
