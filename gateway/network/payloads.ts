// The 8-bit payload and destination port of each smart-message kind, built by protocol/smart's codecs.
import { SMART_PORTS } from '../../protocol/smart/sms-submit.ts';
import type { RichContent, SmartKind } from './encode.ts';

export class UnsupportedContentError extends Error {}

export interface SmartPayload {
  data: Uint8Array;
  port: number;
  srcPort?: number;
}

export function smartPayload(c: Extract<RichContent, { kind: SmartKind }>): SmartPayload {
  switch (c.kind) {
    case 'vcard':
      return { data: new TextEncoder().encode(c.data), port: SMART_PORTS.vcard };
    case 'vcalendar':
      return { data: new TextEncoder().encode(c.data), port: SMART_PORTS.vcalendar };
    default:
      throw new UnsupportedContentError(`content kind ${c.kind} cannot be encoded yet`);
  }
}
