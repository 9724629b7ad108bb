// Issue 26: before Send, Compose names the recipients on the opt-out list (they are never sent to),
// so that nobody learns it from a count after the fact. Asked through the Dialog (useDialog).
import type { SendEstimate } from '../../../preload/api.ts';
import type { ConfirmOptions } from '../../components/Dialog.tsx';
import { displayNumber, plural } from '../../format.ts';

/** The question to ask before sending, or null when no recipient opted out. */
export function optedOutQuestion(e: SendEstimate): ConfirmOptions | null {
  if (e.optedOut <= 0) return null;
  const named = (e.optedOutNamed ?? []).map((r) =>
    r.name ? `${r.name} (${displayNumber(r.number)})` : displayNumber(r.number),
  );
  const more = e.optedOut - named.length;
  const who = named.join(', ') + (more > 0 ? ` and ${more.toLocaleString()} more` : '');
  const isAre = e.optedOut === 1 ? 'is' : 'are';
  return {
    title: `${plural(e.optedOut, 'recipient')} opted out`,
    message:
      `${who} ${isAre} on the opt-out list and will not be sent to.` +
      (e.recipients === 1
        ? ' Send to the other recipient?'
        : e.recipients > 1
          ? ` Send to the other ${e.recipients.toLocaleString()} recipients?`
          : ''),
    confirmLabel: e.recipients > 0 ? 'Send to the others' : 'OK',
    cancelLabel: 'Go back',
  };
}
