// Choosing a library number (spec 2.4, 8): the numbers of library.list() for these kinds, or a
// number typed in (a number can always be typed: the list may not know every file).
import { useEffect, useId, useState } from 'react';
import type { LibraryItem, LibraryItemKind } from '../../../domain/index.ts';
import { LIBRARY_RANGES, LIMITS } from '../../../protocol/limits.ts';
import type { LibraryKind } from '../../../protocol/limits.ts';
import { api, errorText } from '../../api.ts';
import { libraryNumberProblem } from './library-number.ts';

export interface LibraryPickerProps {
  kinds: readonly LibraryItemKind[];
  /** The library range the number must be in (spec 8), when the spec gives one. */
  library?: LibraryKind;
  value: string;
  onChange(value: string): void;
}

export function LibraryPicker({ kinds, library, value, onChange }: LibraryPickerProps) {
  const range = library !== undefined ? LIBRARY_RANGES[library] : undefined;
  const [items, setItems] = useState<LibraryItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const kindKey = kinds.join(',');

  useEffect(() => {
    let live = true;
    const wanted = new Set(kindKey.split(','));
    api()
      .library.list()
      .then(
        (all) => live && setItems(all.filter((i) => wanted.has(i.kind))),
        (e: unknown) => live && setError(errorText(e)),
      );
    return () => {
      live = false;
    };
  }, [kindKey]);

  const problem = libraryNumberProblem(value, library);
  return (
    <div className="library-picker">
      <label htmlFor={`${id}-list`}>From the library</label>
      {items === null && !error ? <p className="muted small">Loading the library…</p> : null}
      {error ? <p className="warn-text small">The library list is not available: {error}</p> : null}
      {items !== null ? (
        items.length === 0 ? (
          <p className="muted small">No library items of this kind yet; type a number below.</p>
        ) : (
          <select
            id={`${id}-list`}
            size={Math.min(6, Math.max(2, items.length))}
            value={items.some((i) => String(i.number) === value.trim()) ? value.trim() : ''}
            onChange={(e) => onChange(e.target.value)}
          >
            {items.map((i) => (
              <option key={i.number} value={String(i.number)}>
                {i.number} — {i.name || '(no name)'} {i.owner === 'own' ? '(yours)' : '(public)'}
              </option>
            ))}
          </select>
        )
      ) : null}
      <label>
        Library number
        <input
          inputMode="numeric"
          value={value}
          maxLength={LIMITS.libraryNumberDigits}
          placeholder={range ? `${range[0]}–${range[1]}` : '5 digits'}
          aria-invalid={value.trim() !== '' && problem !== null}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
    </div>
  );
}
