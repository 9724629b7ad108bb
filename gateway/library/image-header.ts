// Image sizes from the file header alone (issue 17), before any decoding: a 31 KB PNG can say
// 16000×16000 pixels, and decoding it cost 18 s of CPU and a gigabyte. adapt.ts refuses an image
// whose header is unreadable or over the largest source a handset's content can come from.

/** The image types the gateway adapts (adapt.ts), here because the header readers name them. */
export type ImageType = 'image/jpeg' | 'image/gif' | 'image/png' | 'image/vnd.wap.wbmp';

/** The largest side accepted (the WBMP reader's bound) and the largest pixel count (16 MiB RGBA). */
export const MAX_IMAGE_SIDE = 4096;
export const MAX_IMAGE_PIXELS = 2048 * 2048;

/** Bad image data, or an image too large to decode: the sender's content, not a server error. */
export class ImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageError';
  }
}

const be16 = (b: Uint8Array, i: number): number => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const be32 = (b: Uint8Array, i: number): number => be16(b, i) * 65536 + be16(b, i + 2);
const le16 = (b: Uint8Array, i: number): number => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);

function uintvar(data: Uint8Array, pos: number): [number, number] {
  let n = 0;
  for (let i = 0; i < 5; i++) {
    const b = data[pos++];
    if (b === undefined) throw new ImageError('the WBMP header is cut short');
    n = n * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return [n, pos];
  }
  throw new ImageError('the WBMP header is not valid');
}

function jpegSize(b: Uint8Array): { width: number; height: number } {
  if (b[0] !== 0xff || b[1] !== 0xd8) throw new ImageError('the data is not a JPEG image');
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) throw new ImageError('the JPEG data is damaged');
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = be16(b, i + 2);
    if (len < 2) throw new ImageError('the JPEG data is damaged');
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) {
      if (i + 9 > b.length) break;
      return { height: be16(b, i + 5), width: be16(b, i + 7) };
    }
    if (marker === 0xda || marker === 0xd9) break;
    i += 2 + len;
  }
  throw new ImageError('the JPEG data has no frame header');
}

/** Width and height as the header states them; ImageError when the header is not of `type`. */
export function imageHeaderSize(bytes: Uint8Array, type: ImageType): { width: number; height: number } {
  switch (type) {
    case 'image/png': {
      const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
      if (bytes.length < 24 || sig.some((v, i) => bytes[i] !== v))
        throw new ImageError('the data is not a PNG image');
      if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR')
        throw new ImageError('the PNG data has no IHDR header');
      return { width: be32(bytes, 16), height: be32(bytes, 20) };
    }
    case 'image/gif': {
      const magic = String.fromCharCode(...bytes.subarray(0, 6));
      if (bytes.length < 10 || (magic !== 'GIF87a' && magic !== 'GIF89a'))
        throw new ImageError('the data is not a GIF image');
      return { width: le16(bytes, 6), height: le16(bytes, 8) };
    }
    case 'image/jpeg':
      return jpegSize(bytes);
    case 'image/vnd.wap.wbmp': {
      const [t, p1] = uintvar(bytes, 0);
      if (t !== 0) throw new ImageError(`WBMP type ${t} is not supported`);
      const [width, p2] = uintvar(bytes, p1 + 1);
      const [height] = uintvar(bytes, p2);
      return { width, height };
    }
  }
}

/** The header's size if it may be decoded; ImageError (with the reason) otherwise. */
export function checkImageHeader(bytes: Uint8Array, type: ImageType): { width: number; height: number } {
  const { width, height } = imageHeaderSize(bytes, type);
  if (width < 1 || height < 1) throw new ImageError(`the image has no pixels (${width}×${height})`);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS)
    throw new ImageError(
      `the image is ${width}×${height} pixels; at most ${MAX_IMAGE_SIDE} on a side and ${MAX_IMAGE_PIXELS} pixels are accepted (a handset shows far less)`,
    );
  return { width, height };
}
