// The sentence of a typed library number that cannot be sent: the picker's aria-invalid and the
// problems of every editor that takes one (ringtone, bitmaps, MMS, WAP push). The rules are
// protocol's: 5 digits (parseLibraryNumber) in the range of the kind (inLibraryRange, spec 8).
import { inLibraryRange, LIBRARY_RANGES, LIMITS, parseLibraryNumber } from '../../../protocol/limits.ts';
import type { LibraryKind } from '../../../protocol/limits.ts';

/** Why a typed library number cannot be sent as `kind` (any range when not given), or null. */
export function libraryNumberProblem(value: string, kind?: LibraryKind): string | null {
  const v = value.trim();
  if (v === '') return 'Choose a library item or type its number.';
  const n = parseLibraryNumber(v);
  if (n === null) return `A library number has ${LIMITS.libraryNumberDigits} digits (got “${v}”).`;
  if (kind !== undefined && !inLibraryRange(kind, n)) {
    const [min, max] = LIBRARY_RANGES[kind];
    return `Library number ${v} is outside ${min}–${max}, the range of this kind of content.`;
  }
  return null;
}
