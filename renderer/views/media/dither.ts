// Image → 1-bit bitmap for logos and pictures: the RGBA pixels of an image already scaled to the
// target size (the renderer draws it on a canvas) become black/white with Floyd–Steinberg error
// diffusion. Pure, so it is tested under Node with a known image.
import type { Bitmap } from '../../../protocol/smart/ota-bitmap.ts';

export interface DitherOptions {
  /** Grey level 0..255 below which a pixel is black (default 128). */
  threshold?: number;
  /** Diffuse the quantisation error (Floyd–Steinberg); false is a plain threshold. Default true. */
  dither?: boolean;
}

/** Luminance 0..255 of an RGBA pixel composited over white (ITU-R BT.601 weights). */
export function luminance(r: number, g: number, b: number, a = 255): number {
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  const alpha = a / 255;
  return y * alpha + 255 * (1 - alpha);
}

/**
 * Converts RGBA pixels (4 octets per pixel, row-major, `width` × `height`) to a 1-bit bitmap:
 * 1 = black where the grey level (plus diffused error) is below the threshold.
 */
export function ditherToBitmap(
  rgba: ArrayLike<number>,
  width: number,
  height: number,
  options: DitherOptions = {},
): Bitmap {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new RangeError(`image size must be whole numbers above 0, got ${width}×${height}`);
  if (rgba.length !== width * height * 4)
    throw new RangeError(`${width}×${height} RGBA needs ${width * height * 4} octets, got ${rgba.length}`);
  const threshold = options.threshold ?? 128;
  if (!(threshold >= 0 && threshold <= 255))
    throw new RangeError(`threshold must be 0..255, got ${threshold}`);
  const diffuse = options.dither ?? true;
  const grey = new Float32Array(width * height);
  for (let i = 0; i < grey.length; i++)
    grey[i] = luminance(rgba[4 * i]!, rgba[4 * i + 1]!, rgba[4 * i + 2]!, rgba[4 * i + 3]!);
  const pixels = new Uint8Array(width * height);
  const spread = (x: number, y: number, amount: number): void => {
    if (x < 0 || x >= width || y >= height) return;
    grey[y * width + x]! += amount;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const old = grey[i]!;
      const black = old < threshold;
      pixels[i] = black ? 1 : 0;
      if (!diffuse) continue;
      const err = old - (black ? 0 : 255);
      spread(x + 1, y, (err * 7) / 16);
      spread(x - 1, y + 1, (err * 3) / 16);
      spread(x, y + 1, (err * 5) / 16);
      spread(x + 1, y + 1, err / 16);
    }
  }
  return { width, height, pixels };
}

/**
 * Where an image of srcW × srcH goes inside dstW × dstH keeping its aspect ratio: scaled to fit,
 * centred (the rest stays white). Whole pixels; at least 1×1.
 */
export function fitRect(
  srcW: number,
  srcH: number,
  dstW: number,
  dstH: number,
): { x: number; y: number; width: number; height: number } {
  const scale = Math.min(dstW / srcW, dstH / srcH);
  const width = Math.max(1, Math.min(dstW, Math.round(srcW * scale)));
  const height = Math.max(1, Math.min(dstH, Math.round(srcH * scale)));
  return { x: Math.floor((dstW - width) / 2), y: Math.floor((dstH - height) / 2), width, height };
}
