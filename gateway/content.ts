// What one outbound message carries. The contract says this is the input of protocol/smart's
// `encodeContentToPdus`; until that type exists this is its structural shape: a `kind`
// discriminant ('text', 'flash', 'ringtone', 'operator-logo', ...) plus the kind's own fields.
// Stored as JSON in messages.content, so it must stay JSON-serialisable (hex strings, not bytes).
export interface OutboundContent {
  kind: string;
  text?: string;
  [field: string]: unknown;
}

export function textContent(text: string, flash = false): OutboundContent {
  return { kind: flash ? 'flash' : 'text', text };
}
