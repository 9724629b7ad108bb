// Content adaption (spec 2.4): image files (.jpg .gif .png .wbmp) are scaled and, where the handset
// cannot show the format, converted, to fit the recipient handset's profile (PhoneMake/PhoneModel),
// unless DisableRepurposing=1. Other content (OTA bitmaps, sound, video, .jar) passes unchanged.
// jimp decodes and encodes JPEG/PNG/GIF and scales; WBMP (a 1-bit headerless-ish WAP format jimp does
// not know) is read and written here, it is a few lines.
import { Jimp } from 'jimp';
import { checkImageHeader, ImageError, MAX_IMAGE_PIXELS } from './image-header.ts';
import type { ImageType } from './image-header.ts';

/** Memory one decode may take (RGBA of MAX_IMAGE_PIXELS is 16 MiB; the decoders need some more). */
const DECODE_MEMORY_MB = 128;

export type { ImageType } from './image-header.ts';
export const ADAPTABLE_TYPES: ReadonlyArray<ImageType> = [
  'image/jpeg',
  'image/gif',
  'image/png',
  'image/vnd.wap.wbmp',
];

export interface HandsetProfile {
  make: string;
  model: string;
  /** largest image the screen shows */
  width: number;
  height: number;
  /** image formats the handset shows, preferred first */
  formats: ReadonlyArray<ImageType>;
  /** whether the handset wants a SMIL presentation in an MMS (AddSMIL=0 follows this) */
  smil: boolean;
}

const COLOUR: ReadonlyArray<ImageType> = ['image/jpeg', 'image/png', 'image/gif', 'image/vnd.wap.wbmp'];
const MONO: ReadonlyArray<ImageType> = ['image/vnd.wap.wbmp'];

type ProfileShape = Omit<HandsetProfile, 'make' | 'model'>;
/** per make: the default profile of the make, then known models */
const PROFILES: Record<string, { default: ProfileShape; models: Record<string, ProfileShape> }> = {
  nokia: {
    default: { width: 176, height: 208, formats: COLOUR, smil: true },
    models: {
      '3410': { width: 96, height: 65, formats: MONO, smil: false },
      '3310': { width: 84, height: 48, formats: MONO, smil: false },
      '6610': { width: 128, height: 128, formats: COLOUR, smil: true },
      '7650': { width: 176, height: 208, formats: COLOUR, smil: true },
    },
  },
  ericsson: {
    default: { width: 101, height: 80, formats: COLOUR, smil: true },
    models: { t68: { width: 101, height: 80, formats: COLOUR, smil: true } },
  },
  motorola: { default: { width: 176, height: 220, formats: COLOUR, smil: true }, models: {} },
  siemens: { default: { width: 132, height: 176, formats: COLOUR, smil: true }, models: {} },
  sagem: { default: { width: 128, height: 160, formats: COLOUR, smil: true }, models: {} },
  alcatel: { default: { width: 128, height: 128, formats: COLOUR, smil: true }, models: {} },
  ems: { default: { width: 96, height: 64, formats: MONO, smil: false }, models: {} },
};
const GENERIC: ProfileShape = { width: 176, height: 144, formats: COLOUR, smil: true };

/** The handset profile for a PhoneMake/PhoneModel pair (unknown make or model: the make's or a generic one). */
export function handsetProfile(make?: string, model?: string): HandsetProfile {
  const byMake = make ? PROFILES[make.toLowerCase()] : undefined;
  const shape =
    (model && byMake?.models[model.toLowerCase().replace(/\s+/g, '')]) || byMake?.default || GENERIC;
  return { make: make ?? 'generic', model: model ?? '', ...shape };
}

export interface AdaptedContent {
  bytes: Uint8Array;
  contentType: string;
  adapted: boolean;
  width?: number;
  height?: number;
}

export function isAdaptable(contentType: string): contentType is ImageType {
  return (ADAPTABLE_TYPES as ReadonlyArray<string>).includes(contentType);
}

// --- WBMP type 0 (WAP-237 WAE, 6.3): type 0, fix header 0, width and height as uintvar, rows of bits
// padded to octets, 1 = white.
function readUintvar(data: Uint8Array, pos: number): [number, number] {
  let n = 0;
  for (let i = 0; i < 5; i++) {
    const b = data[pos++];
    if (b === undefined) throw new Error('WBMP truncated');
    n = n * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return [n, pos];
  }
  throw new Error('bad WBMP header');
}
function uintvar(n: number): number[] {
  const out = [n & 0x7f];
  for (let v = n >>> 7; v > 0; v >>>= 7) out.unshift((v & 0x7f) | 0x80);
  return out;
}

export function decodeWbmp(data: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const [type, p1] = readUintvar(data, 0);
  if (type !== 0) throw new Error(`WBMP type ${type} not supported`);
  const [width, p2] = readUintvar(data, p1 + 1); // + the fix header field
  const [height, pos] = readUintvar(data, p2);
  if (width < 1 || height < 1 || width > 4096 || height > 4096) throw new Error('bad WBMP size');
  const stride = Math.ceil(width / 8);
  if (data.length < pos + stride * height) throw new Error('WBMP truncated');
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const bit = ((data[pos + y * stride + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1;
      const v = bit ? 255 : 0;
      rgba.set([v, v, v, 255], (y * width + x) * 4);
    }
  return { width, height, rgba };
}

export function encodeWbmp(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const stride = Math.ceil(width / 8);
  const bits = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const lum = 0.299 * (rgba[i] ?? 0) + 0.587 * (rgba[i + 1] ?? 0) + 0.114 * (rgba[i + 2] ?? 0);
      const alpha = rgba[i + 3] ?? 255;
      if (alpha < 128 || lum >= 128) bits[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  return Uint8Array.from([0, 0, ...uintvar(width), ...uintvar(height), ...bits]);
}

/**
 * Decodes an image whose header was checked first (issue 17: size before any pixel is decoded). Bad
 * data is an ImageError: the sender's content (report 13), not a server error.
 */
async function load(bytes: Uint8Array, contentType: ImageType) {
  checkImageHeader(bytes, contentType);
  try {
    if (contentType === 'image/vnd.wap.wbmp') {
      const { width, height, rgba } = decodeWbmp(bytes);
      return Jimp.fromBitmap({ width, height, data: Buffer.from(rgba) });
    }
    // The decoder bounded as well (issue 23): jpeg-js refuses more pixels or memory than these.
    return await Jimp.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      'image/jpeg': { maxResolutionInMP: MAX_IMAGE_PIXELS / 1e6, maxMemoryUsageInMB: DECODE_MEMORY_MB },
    });
  } catch (err) {
    throw new ImageError(
      `the ${contentType} data cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * Adapts content to a handset: images larger than its screen are scaled down (aspect kept), images in a
 * format it cannot show are converted to its preferred one. Returns the input unchanged (adapted false)
 * for non-images, when repurposing is disabled, or when the image already fits.
 */
export async function adaptContent(
  bytes: Uint8Array,
  contentType: string,
  profile: HandsetProfile,
  opts: { disableRepurposing?: boolean } = {},
): Promise<AdaptedContent> {
  if (opts.disableRepurposing || !isAdaptable(contentType)) return { bytes, contentType, adapted: false };
  const image = await load(bytes, contentType);
  const fits = image.width <= profile.width && image.height <= profile.height;
  const supported = profile.formats.includes(contentType);
  if (fits && supported)
    return { bytes, contentType, adapted: false, width: image.width, height: image.height };
  if (!fits) image.scaleToFit({ w: profile.width, h: profile.height });
  const target: ImageType = supported ? contentType : (profile.formats[0] ?? 'image/png');
  const out =
    target === 'image/vnd.wap.wbmp'
      ? encodeWbmp(image.width, image.height, new Uint8Array(image.bitmap.data))
      : new Uint8Array(await image.getBuffer(target));
  return { bytes: out, contentType: target, adapted: true, width: image.width, height: image.height };
}

/** Width and height of an image (for tests and the library listing). */
export async function imageSize(
  bytes: Uint8Array,
  contentType: ImageType,
): Promise<{ width: number; height: number }> {
  const image = await load(bytes, contentType);
  return { width: image.width, height: image.height };
}
