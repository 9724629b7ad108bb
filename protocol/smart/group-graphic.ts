// Nokia group graphic / CLI icon (Smart Messaging "caller logo", port 5507): a bare OTA bitmap,
// 72x14 on the handsets.
import { SmartCodecError } from './bytes.ts';
import { BITMAP_SIZES, decodeOtaBitmap, encodeOtaBitmap } from './ota-bitmap.ts';
import type { Bitmap } from './ota-bitmap.ts';

export function encodeGroupGraphic(bitmap: Bitmap): Uint8Array {
  const { width, height } = BITMAP_SIZES.groupGraphic;
  if (bitmap.width !== width || bitmap.height !== height) {
    throw new SmartCodecError(`a group graphic is ${width}x${height}, got ${bitmap.width}x${bitmap.height}`);
  }
  return encodeOtaBitmap(bitmap);
}

export function decodeGroupGraphic(bytes: Uint8Array): Bitmap {
  return decodeOtaBitmap(bytes);
}
