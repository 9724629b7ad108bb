// Restoring an editor from its saved state (issue 12, types.ts EditorState): the saved JSON was read
// from disk and may come from an older version, so each value is taken only when it still fits the
// form's default (same type, or the check given for it); anything else keeps the default.
import type { DraftJson } from '../../../domain/index.ts';
import { bytesToHex } from '../../../protocol/smart/index.ts';
import type { Bitmap } from '../../../protocol/smart/ota-bitmap.ts';
import { createBitmap } from '../../../protocol/smart/ota-bitmap.ts';
import type { PickedFile } from './file-drafts.ts';
import type { EditorState } from './types.ts';

type Checks<T> = { [K in keyof T]?: (value: unknown) => T[K] | undefined };

/** `defaults` with each saved value that has the default's type (or passes its check). */
export function restoreForm<T extends object>(
  defaults: T,
  saved: EditorState | undefined,
  checks: Checks<T> = {},
): T {
  if (!saved) return defaults;
  const out = { ...defaults };
  for (const key of Object.keys(defaults) as Array<keyof T & string>) {
    if (!(key in saved)) continue;
    const value: unknown = saved[key];
    const check = checks[key];
    if (check) {
      const v = check(value);
      if (v !== undefined) out[key] = v;
    } else if (typeof value === typeof defaults[key] && value !== null) {
      out[key] = value as T[typeof key];
    }
  }
  return out;
}

/** A check for one of a few string values. */
export function oneOf<V extends string>(...values: readonly V[]): (value: unknown) => V | undefined {
  return (value) => (values.includes(value as V) ? (value as V) : undefined);
}

/** Files up to this size are kept in a draft (bigger ones are named and must be chosen again). */
export const DRAFT_FILE_MAX = 256 * 1024;

/** A picked file as the draft keeps it: the file itself when small enough, else only its name and size. */
export function fileForState(file: PickedFile | null): DraftJson {
  if (!file) return null;
  if (file.size > DRAFT_FILE_MAX) return { name: file.name, size: file.size, notKept: true };
  return file as unknown as DraftJson;
}

/** The file of a saved state (or null), and the name of one that was too large to keep. */
export function fileOfState(value: unknown): { file: PickedFile | null; notKept: string | null } {
  if (typeof value !== 'object' || value === null) return { file: null, notKept: null };
  const v = value as Partial<PickedFile> & { notKept?: boolean };
  if (typeof v.name !== 'string' || typeof v.size !== 'number') return { file: null, notKept: null };
  if (v.notKept === true) return { file: null, notKept: v.name };
  if (typeof v.hex !== 'string' || v.hex.length !== v.size * 2 || !/^[0-9a-fA-F]*$/.test(v.hex))
    return { file: null, notKept: v.name };
  return { file: v as PickedFile, notKept: null };
}

/** A bitmap's pixels as hex, 4 pixels a digit, row-major (72×28 is 504 digits). */
export function pixelsToHex(bitmap: Bitmap): string {
  const bytes = new Uint8Array(Math.ceil(bitmap.pixels.length / 8));
  bitmap.pixels.forEach((p, i) => {
    if (p) bytes[i >> 3]! |= 0x80 >> (i & 7);
  });
  return bytesToHex(bytes);
}

/** The bitmap of saved pixels, or a blank one when they do not fit this size. */
export function bitmapOfHex(hex: unknown, width: number, height: number): Bitmap | null {
  const bitmap = createBitmap(width, height);
  const n = width * height;
  if (typeof hex !== 'string' || hex.length !== Math.ceil(n / 8) * 2 || !/^[0-9a-fA-F]*$/.test(hex))
    return null;
  for (let i = 0; i < n; i++) {
    const byte = parseInt(hex.slice((i >> 3) * 2, (i >> 3) * 2 + 2), 16);
    bitmap.pixels[i] = byte & (0x80 >> (i & 7)) ? 1 : 0;
  }
  return bitmap;
}
