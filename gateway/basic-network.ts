// The network used until gateway-rich's simulator is plugged in (gateway/rich.ts createNetwork):
// counts parts like an SMSC would (GSM-7 / UCS-2 segments for text, one part for anything else)
// and accepts messages without producing PDUs or receipts.
import { analyzeText } from '../protocol/sms.ts';
import type { NetworkLike, MessageRow } from './context.ts';
import type { OutboundContent } from './content.ts';

export class BasicNetwork implements NetworkLike {
  readonly dispatched: MessageRow[] = [];

  partsFor(content: OutboundContent): number {
    if ((content.kind === 'text' || content.kind === 'flash') && typeof content.text === 'string') {
      return Math.max(1, analyzeText(content.text, { flash: content.kind === 'flash' }).segments);
    }
    return 1;
  }

  dispatch(message: MessageRow): void {
    this.dispatched.push(message);
    if (this.dispatched.length > 1000) this.dispatched.shift();
  }

  close(): void {}
}
