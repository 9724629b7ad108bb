// What the three bitmap kinds send and why they cannot be sent yet: shared by their editors.
import { LIBRARY_RANGES } from '../../../protocol/limits.ts';
import { encodeNetworkCode } from '../../../protocol/smart/operator-logo.ts';
import type { Bitmap } from '../../../protocol/smart/ota-bitmap.ts';
import { otaBitmapToHex } from '../../../protocol/smart/ota-bitmap.ts';
import { blackCount } from './bitmap-ops.ts';
import { libraryNumberProblem } from './LibraryPicker.tsx';

export type BitmapSource = { from: 'draw'; bitmap: Bitmap } | { from: 'library'; number: string };

/** The field value (hex OTA bitmap or library number) and the problems of a bitmap source. */
export function bitmapField(
  source: BitmapSource,
  range: keyof typeof LIBRARY_RANGES,
  what: string,
): { value: string; problems: string[] } {
  if (source.from === 'library') {
    const p = libraryNumberProblem(source.number, LIBRARY_RANGES[range]);
    return { value: source.number.trim(), problems: p ? [p] : [] };
  }
  const problems = blackCount(source.bitmap) === 0 ? [`The ${what} is blank: draw or import something.`] : [];
  return { value: otaBitmapToHex(source.bitmap), problems };
}

/** Problems of an operator logo's MCC/MNC: digits, and what the Nokia network code can carry. */
export function networkProblems(mcc: string, mnc: string): string[] {
  const out: string[] = [];
  if (mcc === '') out.push('Choose a network or type its MCC.');
  else if (!/^\d{3}$/.test(mcc)) out.push(`MCC must be 3 digits (got “${mcc}”).`);
  if (mnc === '') out.push('Choose a network or type its MNC.');
  else if (!/^\d{2,3}$/.test(mnc)) out.push(`MNC must be 2 or 3 digits (got “${mnc}”).`);
  if (out.length === 0 && mnc.length === 3) {
    out.push(
      `MNC ${mnc} has three digits; a Nokia operator logo carries a two-digit MNC only, so handsets on this network cannot show it.`,
    );
  } else if (out.length === 0) {
    try {
      encodeNetworkCode(Number(mcc), Number(mnc));
    } catch (err) {
      out.push(`Network code ${mcc} ${mnc}: ${err instanceof Error ? err.message : String(err)}.`);
    }
  }
  return out;
}
