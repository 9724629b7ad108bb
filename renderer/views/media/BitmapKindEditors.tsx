// The editors of operator logos (72×14 + network), group graphics (72×14, Nokia) and picture
// messages (72×28 + text): drawn/imported in the bitmap editor, or a library number (spec 8 ranges).
import { useCallback, useMemo, useState } from 'react';
import type { Bitmap } from '../../../protocol/smart/ota-bitmap.ts';
import { BITMAP_SIZES, createBitmap, otaBitmapSize } from '../../../protocol/smart/ota-bitmap.ts';
import type { LibraryItemKind } from '../../../domain/index.ts';
import { BitmapEditor } from './BitmapEditor.tsx';
import { bitmapField, networkProblems, type BitmapSource } from './bitmap-drafts.ts';
import { bitmapOfHex, oneOf, pixelsToHex, restoreForm } from './editor-state.ts';
import { LibraryPicker } from './LibraryPicker.tsx';
import { NetworkPicker } from './NetworkPicker.tsx';
import { findNetwork } from './networks.ts';
import type { ContentDraft, ContentEditorProps, EditorState } from './types.ts';
import { useReportDraft } from './use-draft.ts';

type BitmapKind = keyof typeof BITMAP_SIZES;

const LIBRARY_KINDS: Record<BitmapKind, LibraryItemKind[]> = {
  operatorLogo: ['operatorLogo', 'groupGraphic'],
  groupGraphic: ['groupGraphic', 'operatorLogo'],
  pictureMessage: ['pictureMessage'],
};
const LABELS: Record<BitmapKind, string> = {
  operatorLogo: 'Operator logo',
  groupGraphic: 'Group graphic',
  pictureMessage: 'Picture',
};

/**
 * Draw / library choice and the bitmap editor or library picker; reports the source and its state
 * (the choice, the pixels as hex and the library number), and starts from a saved state.
 */
function useBitmapSource(kind: BitmapKind, saved: EditorState | undefined) {
  const { width, height } = BITMAP_SIZES[kind];
  const [start] = useState(() => ({
    ...restoreForm({ from: 'draw' as 'draw' | 'library', number: '' }, saved, {
      from: oneOf('draw', 'library'),
    }),
    bitmap: bitmapOfHex(saved?.['pixels'], width, height) ?? createBitmap(width, height),
  }));
  const [from, setFrom] = useState(start.from);
  const [bitmap, setBitmap] = useState<Bitmap>(start.bitmap);
  const [number, setNumber] = useState(start.number);
  const source: BitmapSource = from === 'draw' ? { from, bitmap } : { from, number };
  const pixels = useMemo(() => pixelsToHex(bitmap), [bitmap]);
  const state: EditorState = { from, pixels, number };
  const onBitmap = useCallback((b: Bitmap) => setBitmap(b), []);
  const ui = (
    <>
      <fieldset className="row wrap plain-fieldset">
        <legend className="visually-hidden">{LABELS[kind]} source</legend>
        <label className="check">
          <input
            type="radio"
            name={`${kind}-source`}
            checked={from === 'draw'}
            onChange={() => setFrom('draw')}
          />
          Draw or import
        </label>
        <label className="check">
          <input
            type="radio"
            name={`${kind}-source`}
            checked={from === 'library'}
            onChange={() => setFrom('library')}
          />
          Library
        </label>
      </fieldset>
      {/* The editor stays mounted (hidden) while a library number is chosen, so the drawing is kept. */}
      <div hidden={from !== 'draw'}>
        <BitmapEditor
          width={width}
          height={height}
          label={LABELS[kind]}
          initial={start.bitmap}
          onChange={onBitmap}
        />
      </div>
      {from === 'library' ? (
        <LibraryPicker kinds={LIBRARY_KINDS[kind]} library={kind} value={number} onChange={setNumber} />
      ) : null}
    </>
  );
  return { source, state, ui };
}

function sizeNote(source: BitmapSource): string {
  return source.from === 'draw'
    ? `${source.bitmap.width}×${source.bitmap.height}, ${otaBitmapSize(source.bitmap.width, source.bitmap.height)} bytes`
    : `library number ${source.number.trim()}`;
}

export function OperatorLogoEditor({ onChange, saved }: ContentEditorProps) {
  const { source, state, ui } = useBitmapSource('operatorLogo', saved);
  const [net, setNet] = useState(() => restoreForm({ mcc: '', mnc: '' }, saved));
  const draft: ContentDraft = useMemo(() => {
    const b = bitmapField(source, 'operatorLogo', 'logo');
    const network = findNetwork(net.mcc, net.mnc);
    return {
      kind: 'operatorLogo',
      text: '',
      fields: { OperatorLogo: b.value, MCC: net.mcc, MNC: net.mnc },
      problems: [...b.problems, ...networkProblems(net.mcc, net.mnc)],
      summary: `Operator logo (${sizeNote(source)}) for ${
        network
          ? `${network.name} (${net.mcc} ${net.mnc})`
          : net.mcc || net.mnc
            ? `network ${net.mcc} ${net.mnc}`
            : 'no network yet'
      }`,
    };
  }, [source, net]);
  useReportDraft(draft, { ...state, ...net }, onChange);
  return (
    <div className="media-editor">
      {ui}
      <NetworkPicker mcc={net.mcc} mnc={net.mnc} onChange={setNet} />
    </div>
  );
}

export function GroupGraphicEditor({ onChange, saved }: ContentEditorProps) {
  const { source, state, ui } = useBitmapSource('groupGraphic', saved);
  const draft: ContentDraft = useMemo(() => {
    const b = bitmapField(source, 'groupGraphic', 'group graphic');
    return {
      kind: 'groupGraphic',
      text: '',
      fields: { GroupGraphic: b.value },
      problems: b.problems,
      summary: `Group graphic (${sizeNote(source)})`,
    };
  }, [source]);
  useReportDraft(draft, state, onChange);
  return <div className="media-editor">{ui}</div>;
}

export function PictureMessageEditor({ onChange, saved }: ContentEditorProps) {
  const { source, state, ui } = useBitmapSource('pictureMessage', saved);
  const [text, setText] = useState(() => restoreForm({ text: '' }, saved).text);
  const draft: ContentDraft = useMemo(() => {
    const b = bitmapField(source, 'pictureMessage', 'picture');
    return {
      kind: 'pictureMessage',
      text,
      fields: { PictureMessage: b.value },
      problems: b.problems,
      summary: `Picture message (${sizeNote(source)})${text ? ` with “${text.slice(0, 30)}”` : ''}`,
    };
  }, [source, text]);
  useReportDraft(draft, { ...state, text }, onChange);
  return (
    <div className="media-editor">
      {ui}
      <label>
        Picture text
        <textarea rows={2} value={text} onChange={(e) => setText(e.target.value)} />
      </label>
    </div>
  );
}
