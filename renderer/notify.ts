// New replies noticed in the web shell: the browser's Notification API (Electron shows its own
// notifications from the main process, main/electron/index.ts). Permission is asked once, from a
// click (browsers ignore a request that no user action started); a notification is shown only
// while the tab is in the background, and its click brings the tab forward and opens the
// conversation. The unread count in the window title is the App's (both shells).
import type { MessageRecord } from '../domain/index.ts';
import { displayNumber } from './format.ts';

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** 'default' until the user answered the browser's question. */
export function notificationPermission(): NotificationPermission | 'unsupported' {
  return notificationsSupported() ? Notification.permission : 'unsupported';
}

/** Ask the browser (call from a click handler). */
export async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  return Notification.requestPermission();
}

/** "(3) Messenger": the unread count first, so it shows in a narrow tab or taskbar entry. */
export function windowTitle(appName: string, unread: number): string {
  return unread > 0 ? `(${unread}) ${appName}` : appName;
}

/**
 * Show one notification for newly received messages when the tab is not in front; its click
 * calls `onOpen` with the first sender's number. Returns the notification (null when none shown).
 */
export function notifyReceived(
  messages: ReadonlyArray<MessageRecord>,
  onOpen: (peer: string) => void,
): Notification | null {
  if (notificationPermission() !== 'granted') return null;
  if (document.visibilityState === 'visible' && document.hasFocus()) return null;
  const inbound = messages.filter((m) => m.direction === 'in');
  const first = inbound[0];
  if (!first) return null;
  const senders = [...new Set(inbound.map((m) => displayNumber(m.peer)))];
  const title =
    inbound.length === 1 ? `New message from ${displayNumber(first.peer)}` : `${inbound.length} new messages`;
  const body = inbound.length === 1 ? first.text.slice(0, 120) : `From ${senders.slice(0, 3).join(', ')}`;
  const n = new Notification(title, { body, tag: `messenger-${first.peer}` });
  n.onclick = () => {
    window.focus();
    onOpen(first.peer);
    n.close();
  };
  return n;
}
