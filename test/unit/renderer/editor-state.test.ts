// An editor's saved state (issue 12): taken back only where it still fits the form, pixels and files
// kept compactly and checked when read.
import { describe, expect, it } from 'vitest';
import { bitmapFromRows, bitmapToRows } from '../../../protocol/smart/ota-bitmap.ts';
import {
  bitmapOfHex,
  DRAFT_FILE_MAX,
  fileForState,
  fileOfState,
  oneOf,
  pixelsToHex,
  restoreForm,
} from '../../../renderer/views/media/editor-state.ts';
import { fileToPicked } from '../../../renderer/views/media/file-drafts.ts';

describe('restoreForm', () => {
  const defaults = {
    source: 'text' as 'text' | 'library',
    text: 'Beep',
    on: true,
    id: null as number | null,
  };
  it('takes the saved values of the right type, keeps the defaults for the rest', () => {
    expect(restoreForm(defaults, undefined)).toEqual(defaults);
    expect(
      restoreForm(
        defaults,
        { source: 'library', text: 'Mine', on: 'yes', extra: 1 },
        { source: oneOf('text', 'library') },
      ),
    ).toEqual({ source: 'library', text: 'Mine', on: true, id: null });
    // a value the check refuses, and null for a string, keep the default
    expect(
      restoreForm(defaults, { source: 'fax', text: null }, { source: oneOf('text', 'library') }),
    ).toEqual(defaults);
    expect(
      restoreForm(defaults, { id: 7 }, { id: (v) => (Number.isSafeInteger(v) ? (v as number) : undefined) })
        .id,
    ).toBe(7);
  });
});

describe('bitmap pixels', () => {
  it('round-trip through hex at both sizes, and a wrong size gives null', () => {
    const rows = Array.from({ length: 14 }, (_, y) =>
      Array.from({ length: 72 }, (_, x) => ((x * 7 + y * 3) % 5 === 0 ? '#' : '.')).join(''),
    );
    const b = bitmapFromRows(rows);
    const hex = pixelsToHex(b);
    expect(hex).toHaveLength(252);
    expect(bitmapToRows(bitmapOfHex(hex, 72, 14)!)).toEqual(bitmapToRows(b));
    expect(bitmapOfHex(hex, 72, 28)).toBeNull();
    expect(bitmapOfHex('zz', 72, 14)).toBeNull();
    expect(bitmapOfHex(undefined, 72, 14)).toBeNull();
  });
});

describe('files in a draft', () => {
  it('keeps a small file, names a large one, refuses a damaged one', () => {
    const small = fileToPicked('a.png', new Uint8Array([1, 2, 3]));
    expect(fileOfState(JSON.parse(JSON.stringify(fileForState(small))))).toEqual({
      file: small,
      notKept: null,
    });
    const big = fileToPicked('big.mms', new Uint8Array(DRAFT_FILE_MAX + 1));
    const kept = fileForState(big);
    expect(JSON.stringify(kept).length).toBeLessThan(100);
    expect(fileOfState(kept)).toEqual({ file: null, notKept: 'big.mms' });
    expect(fileOfState({ name: 'x.png', size: 2, hex: 'abc' })).toEqual({ file: null, notKept: 'x.png' });
    expect(fileOfState(null)).toEqual({ file: null, notKept: null });
  });
});
