// Editing operations of the 1-bit bitmap editor, pure (each returns a new bitmap): set a pixel,
// flood fill, invert, clear, and a bounded undo/redo history.
import type { Bitmap } from '../../../protocol/smart/ota-bitmap.ts';

export function cloneBitmap(b: Bitmap): Bitmap {
  return { width: b.width, height: b.height, pixels: new Uint8Array(b.pixels) };
}

export function getPixel(b: Bitmap, x: number, y: number): number {
  return b.pixels[y * b.width + x] ?? 0;
}

/** The bitmap with (x, y) set to `value` (the same object when nothing changes or it is outside). */
export function setPixel(b: Bitmap, x: number, y: number, value: 0 | 1): Bitmap {
  if (x < 0 || y < 0 || x >= b.width || y >= b.height) return b;
  if (getPixel(b, x, y) === value) return b;
  const next = cloneBitmap(b);
  next.pixels[y * b.width + x] = value;
  return next;
}

/** Flood fill (4-connected) of the region of (x, y) with `value`. */
export function floodFill(b: Bitmap, x: number, y: number, value: 0 | 1): Bitmap {
  if (x < 0 || y < 0 || x >= b.width || y >= b.height) return b;
  const target = getPixel(b, x, y);
  if (target === value) return b;
  const next = cloneBitmap(b);
  const stack: number[] = [y * b.width + x];
  while (stack.length) {
    const i = stack.pop()!;
    if (next.pixels[i] !== target) continue;
    next.pixels[i] = value;
    const px = i % b.width;
    if (px > 0) stack.push(i - 1);
    if (px < b.width - 1) stack.push(i + 1);
    if (i >= b.width) stack.push(i - b.width);
    if (i + b.width < next.pixels.length) stack.push(i + b.width);
  }
  return next;
}

export function invertBitmap(b: Bitmap): Bitmap {
  return { width: b.width, height: b.height, pixels: b.pixels.map((p) => (p ? 0 : 1)) };
}

export function clearBitmap(b: Bitmap): Bitmap {
  return { width: b.width, height: b.height, pixels: new Uint8Array(b.pixels.length) };
}

export function blackCount(b: Bitmap): number {
  let n = 0;
  for (const p of b.pixels) n += p;
  return n;
}

/** Undo/redo history: past states, the present, future states (after an undo). */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
}

export const HISTORY_LIMIT = 200;

export function historyOf<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/** A new present (an edit): the old one goes to the past, the future is dropped. */
export function pushHistory<T>(h: History<T>, next: T): History<T> {
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: [] };
}

export function undo<T>(h: History<T>): History<T> {
  const prev = h.past[h.past.length - 1];
  if (prev === undefined) return h;
  return { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  const next = h.future[0];
  if (next === undefined) return h;
  return { past: [...h.past, h.present], present: next, future: h.future.slice(1) };
}
