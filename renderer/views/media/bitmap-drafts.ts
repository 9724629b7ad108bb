// What the three bitmap kinds send and why they cannot be sent yet: shared by their editors.
import type { LibraryKind } from '../../../protocol/limits.ts';
import { networkCodeProblems } from '../../../protocol/smart/operator-logo.ts';
import type { Bitmap } from '../../../protocol/smart/ota-bitmap.ts';
import { otaBitmapToHex } from '../../../protocol/smart/ota-bitmap.ts';
import { blackCount } from './bitmap-ops.ts';
import { libraryNumberProblem } from './library-number.ts';

export type BitmapSource = { from: 'draw'; bitmap: Bitmap } | { from: 'library'; number: string };

/** The field value (hex OTA bitmap or library number) and the problems of a bitmap source. */
export function bitmapField(
  source: BitmapSource,
  library: LibraryKind,
  what: string,
): { value: string; problems: string[] } {
  if (source.from === 'library') {
    const p = libraryNumberProblem(source.number, library);
    return { value: source.number.trim(), problems: p ? [p] : [] };
  }
  const problems = blackCount(source.bitmap) === 0 ? [`The ${what} is blank: draw or import something.`] : [];
  return { value: otaBitmapToHex(source.bitmap), problems };
}

/** Problems of an operator logo's MCC/MNC: a missing value, then protocol's digits and Nokia network code rules. */
export function networkProblems(mcc: string, mnc: string): string[] {
  // with one value missing, protocol reports on the other one only: the problems stay in field order
  const code = networkCodeProblems(mcc, mnc);
  const noMcc = mcc === '' ? ['Choose a network or type its MCC.'] : [];
  const noMnc = mnc === '' ? ['Choose a network or type its MNC.'] : [];
  return [...noMcc, ...(mnc === '' ? code : []), ...noMnc, ...(mnc === '' ? [] : code)];
}
