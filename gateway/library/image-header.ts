// Image sizes from the file's structure alone (issue 17), before any decoding: a 31 KB PNG can say
// 16000×16000 pixels, and decoding it cost 18 s of CPU and a gigabyte. adapt.ts refuses an image
// whose header is unreadable or over the largest source a handset's content can come from. Issue 23:
// every size the file states is read (each PNG chunk, each GIF frame, each JPEG frame header), in
// one linear pass that decodes no pixel, since a decoder may act on a later one than the first.

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

/** Frames of one GIF and SOF headers of one JPEG looked at, at most (a handset shows the first). */
export const MAX_IMAGE_FRAMES = 1000;

export interface ImageShape {
  width: number;
  height: number;
  /** every other size the data states and a decoder may act on: PNG fcTL, GIF frames, JPEG SOFs */
  frames: Array<{ width: number; height: number }>;
}

/** JPEG: every marker segment to the end (issue 23: a later SOF may state another size). */
function jpegShape(b: Uint8Array): ImageShape {
  if (b[0] !== 0xff || b[1] !== 0xd8) throw new ImageError('the data is not a JPEG image');
  const frames: Array<{ width: number; height: number }> = [];
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
    if (marker === 0xd9) break;
    const len = be16(b, i + 2);
    if (len < 2) throw new ImageError('the JPEG data is damaged');
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) {
      if (i + 9 > b.length) throw new ImageError('the JPEG frame header is cut short');
      if (frames.length >= MAX_IMAGE_FRAMES) throw new ImageError('the JPEG data has too many frame headers');
      frames.push({ height: be16(b, i + 5), width: be16(b, i + 7) });
    }
    i += 2 + len;
    if (marker === 0xda) {
      // entropy-coded data: up to the next marker that is not a stuffed 0xFF00 or a restart marker
      while (i + 1 < b.length) {
        if (b[i] === 0xff) {
          const next = b[i + 1] ?? 0;
          if (next !== 0 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
        }
        i++;
      }
    }
  }
  const first = frames[0];
  if (!first) throw new ImageError('the JPEG data has no frame header');
  return { ...first, frames };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * PNG: every chunk (issue 23: a 16×16 IHDR followed by a 16000×16000 one was decoded at the second
 * size). Exactly one IHDR, first; every APNG frame control (fcTL) counted as a frame.
 */
function pngShape(b: Uint8Array): ImageShape {
  if (b.length < 33 || PNG_SIGNATURE.some((v, i) => b[i] !== v))
    throw new ImageError('the data is not a PNG image');
  if (String.fromCharCode(...b.subarray(12, 16)) !== 'IHDR')
    throw new ImageError('the PNG data has no IHDR header');
  const width = be32(b, 16);
  const height = be32(b, 20);
  const frames: Array<{ width: number; height: number }> = [];
  let i = 8;
  while (i + 8 <= b.length) {
    const len = be32(b, i);
    const type = String.fromCharCode(...b.subarray(i + 4, i + 8));
    if (len > 0x7fffffff || i + 12 + len > b.length)
      throw new ImageError(`the PNG chunk ${type} is cut short`);
    if (type === 'IHDR' && i !== 8) throw new ImageError('the PNG data has more than one IHDR header');
    if (type === 'fcTL') {
      if (len < 26) throw new ImageError('the PNG frame control chunk is cut short');
      if (frames.length >= MAX_IMAGE_FRAMES) throw new ImageError('the PNG data has too many frames');
      frames.push({ width: be32(b, i + 12), height: be32(b, i + 16) });
    }
    i += 12 + len;
    if (type === 'IEND') break;
  }
  return { width, height, frames };
}

/** GIF sub-blocks from `i`: the offset after their terminator. */
function skipSubBlocks(b: Uint8Array, i: number): number {
  for (;;) {
    const n = b[i];
    if (n === undefined) throw new ImageError('the GIF data is cut short');
    i += 1 + n;
    if (n === 0) return i;
  }
}

/**
 * GIF: the logical screen and every frame's image descriptor (issue 23: a 35-byte GIF with a
 * 65535×65535 frame in a 16×16 screen kept the decoder busy for minutes).
 */
function gifShape(b: Uint8Array): ImageShape {
  const magic = String.fromCharCode(...b.subarray(0, 6));
  if (b.length < 13 || (magic !== 'GIF87a' && magic !== 'GIF89a'))
    throw new ImageError('the data is not a GIF image');
  const width = le16(b, 6);
  const height = le16(b, 8);
  const frames: Array<{ width: number; height: number }> = [];
  const flags = b[10] ?? 0;
  let i = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  for (;;) {
    const block = b[i];
    if (block === undefined || block === 0x3b) break; // the end (a missing trailer is tolerated)
    if (block === 0x21) {
      i = skipSubBlocks(b, i + 2);
    } else if (block === 0x2c) {
      if (i + 10 > b.length) throw new ImageError('the GIF image descriptor is cut short');
      if (frames.length >= MAX_IMAGE_FRAMES) throw new ImageError('the GIF data has too many frames');
      const w = le16(b, i + 5);
      const h = le16(b, i + 7);
      frames.push({ width: w, height: h });
      const local = b[i + 9] ?? 0;
      i += 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0);
      i = skipSubBlocks(b, i + 1); // the LZW minimum code size, then the data
    } else {
      throw new ImageError('the GIF data is damaged');
    }
  }
  return { width, height, frames };
}

/** Every size the data states; ImageError when it is not well-formed `type` as far as sizes go. */
export function imageShape(bytes: Uint8Array, type: ImageType): ImageShape {
  switch (type) {
    case 'image/png':
      return pngShape(bytes);
    case 'image/gif':
      return gifShape(bytes);
    case 'image/jpeg':
      return jpegShape(bytes);
    case 'image/vnd.wap.wbmp': {
      const [t, p1] = uintvar(bytes, 0);
      if (t !== 0) throw new ImageError(`WBMP type ${t} is not supported`);
      const [width, p2] = uintvar(bytes, p1 + 1);
      const [height] = uintvar(bytes, p2);
      return { width, height, frames: [] };
    }
  }
}

/** Width and height as the header states them; ImageError when the header is not of `type`. */
export function imageHeaderSize(bytes: Uint8Array, type: ImageType): { width: number; height: number } {
  const { width, height } = imageShape(bytes, type);
  return { width, height };
}

function checkSize(what: string, width: number, height: number): void {
  if (width < 1 || height < 1) throw new ImageError(`${what} has no pixels (${width}×${height})`);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS)
    throw new ImageError(
      `${what} is ${width}×${height} pixels; at most ${MAX_IMAGE_SIDE} on a side and ${MAX_IMAGE_PIXELS} pixels are accepted (a handset shows far less)`,
    );
}

/**
 * The image's size if it may be decoded; ImageError (with the reason) otherwise. Every size the
 * data states is checked (issue 23), not only the first header's.
 */
export function checkImageHeader(bytes: Uint8Array, type: ImageType): { width: number; height: number } {
  const { width, height, frames } = imageShape(bytes, type);
  checkSize('the image', width, height);
  frames.forEach((f, n) => checkSize(`frame ${n + 1} of the image`, f.width, f.height));
  return { width, height };
}
