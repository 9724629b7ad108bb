// Nokia picture message (Smart Messaging, port 5514): a version octet '0' (0x30), then items
//   item type (1 octet) | item length (2 octets, big-endian) | item data
// Item types: 0x00 text in ISO-8859-1, 0x01 text in UCS-2 (big-endian), 0x02 OTA bitmap (72x28).
// Other item types are kept as opaque bytes so that nothing is silently dropped.
import { SmartCodecError, concatBytes } from './bytes.ts';
import { decodeOtaBitmap, encodeOtaBitmap } from './ota-bitmap.ts';
import type { Bitmap } from './ota-bitmap.ts';

export const PICTURE_ITEM = { textLatin1: 0x00, textUcs2: 0x01, otaBitmap: 0x02 } as const;

export interface PictureMessage {
  bitmap: Bitmap;
  /** Text shown with the picture. */
  text?: string;
  /** Items other than text and bitmap, as found. */
  otherItems?: Array<{ type: number; data: Uint8Array }>;
}

function item(type: number, data: Uint8Array): Uint8Array {
  if (data.length > 0xffff) throw new SmartCodecError('picture message item longer than 65535 octets');
  return concatBytes([type, data.length >> 8, data.length & 0xff], data);
}

function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

function ucs2(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    out[2 * i] = text.charCodeAt(i) >> 8;
    out[2 * i + 1] = text.charCodeAt(i) & 0xff;
  }
  return out;
}

/** Encodes text (ISO-8859-1 when it can, UCS-2 otherwise) before the bitmap, as Nokia handsets do. */
export function encodePictureMessage(msg: PictureMessage): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.of(0x30)];
  if (msg.text !== undefined && msg.text !== '') {
    parts.push(
      isLatin1(msg.text)
        ? item(
            PICTURE_ITEM.textLatin1,
            Uint8Array.from(msg.text, (c) => c.charCodeAt(0)),
          )
        : item(PICTURE_ITEM.textUcs2, ucs2(msg.text)),
    );
  }
  parts.push(item(PICTURE_ITEM.otaBitmap, encodeOtaBitmap(msg.bitmap)));
  for (const o of msg.otherItems ?? []) parts.push(item(o.type, o.data));
  return concatBytes(...parts);
}

export function decodePictureMessage(bytes: Uint8Array): PictureMessage {
  if (bytes[0] !== 0x30)
    throw new SmartCodecError(
      `picture message version 0x${(bytes[0] ?? 0).toString(16)} (expected 0x30 '0')`,
      0,
    );
  let at = 1;
  let bitmap: Bitmap | undefined;
  let text: string | undefined;
  const otherItems: Array<{ type: number; data: Uint8Array }> = [];
  while (at < bytes.length) {
    if (at + 3 > bytes.length) throw new SmartCodecError('picture message item header is truncated', at);
    const type = bytes[at]!;
    const len = (bytes[at + 1]! << 8) | bytes[at + 2]!;
    const data = bytes.slice(at + 3, at + 3 + len);
    if (data.length !== len)
      throw new SmartCodecError(`picture message item of ${len} octets is truncated`, at);
    if (type === PICTURE_ITEM.otaBitmap) bitmap = decodeOtaBitmap(data);
    else if (type === PICTURE_ITEM.textLatin1) text = (text ?? '') + String.fromCharCode(...data);
    else if (type === PICTURE_ITEM.textUcs2) {
      let t = '';
      for (let i = 0; i + 1 < data.length; i += 2) t += String.fromCharCode((data[i]! << 8) | data[i + 1]!);
      text = (text ?? '') + t;
    } else otherItems.push({ type, data });
    at += 3 + len;
  }
  if (!bitmap) throw new SmartCodecError('picture message has no bitmap item', at);
  const msg: PictureMessage = { bitmap };
  if (text !== undefined) msg.text = text;
  if (otherItems.length) msg.otherItems = otherItems;
  return msg;
}
