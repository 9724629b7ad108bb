// Ringtone editor (spec 2.4 Ringtone): a library number, or RTTTL/RTX text with live validation
// (the error's position highlighted with its reason), the notes on a staff-like row, the tempo,
// the Nokia binary size (refused when handsets cannot take it), import of .rtttl/.txt files and a
// square-wave preview.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  nearestNokiaTempo,
  NOKIA_TITLE_MAX,
  nokiaRingtoneFit,
} from '../../../protocol/smart/nokia-ringtone.ts';
import { parseRtttl, rtttlDurationMs, RtttlError } from '../../../protocol/smart/rtttl.ts';
import type { RtttlSong } from '../../../protocol/smart/rtttl.ts';
import { playSong } from './audio.ts';
import { oneOf, restoreForm } from './editor-state.ts';
import { libraryNumberProblem } from './library-number.ts';
import { LibraryPicker } from './LibraryPicker.tsx';
import { Staff } from './Staff.tsx';
import type { ContentDraft, ContentEditorProps } from './types.ts';
import { useReportDraft } from './use-draft.ts';

export const SAMPLE_RTTTL = 'Beep:d=8,o=5,b=125:c,e,g,c6.,4p,g,2c6';

type Parsed = { ok: true; song: RtttlSong } | { ok: false; reason: string; position: number };

export function parseForEditor(text: string): Parsed {
  try {
    return { ok: true, song: parseRtttl(text) };
  } catch (err) {
    if (err instanceof RtttlError) return { ok: false, reason: err.reason, position: err.position };
    return { ok: false, reason: err instanceof Error ? err.message : String(err), position: -1 };
  }
}

/** Line and column (1-based) of a character position, for the error message. */
function lineCol(text: string, position: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, position));
  const lines = before.split('\n');
  return { line: lines.length, col: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

export function RingtoneEditor({ onChange, saved }: ContentEditorProps) {
  const [start] = useState(() =>
    restoreForm({ source: 'text' as 'text' | 'library', text: SAMPLE_RTTTL, libraryNumber: '' }, saved, {
      source: oneOf('text', 'library'),
    }),
  );
  const [source, setSource] = useState(start.source);
  const [text, setText] = useState(start.text);
  const [libraryNumber, setLibraryNumber] = useState(start.libraryNumber);
  const [playing, setPlaying] = useState<{ stop(): void } | null>(null);
  const [playError, setPlayError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);

  const parsed = useMemo(() => parseForEditor(text), [text]);
  const fit = useMemo(() => (parsed.ok ? nokiaRingtoneFit(parsed.song) : null), [parsed]);

  useEffect(() => () => playing?.stop(), [playing]);

  const draft: ContentDraft = useMemo(() => {
    if (source === 'library') {
      const problem = libraryNumberProblem(libraryNumber);
      return {
        kind: 'ringtone',
        text: '',
        fields: { Ringtone: libraryNumber.trim() },
        problems: problem ? [problem] : [],
        summary: `Ringtone from the library, number ${libraryNumber.trim()}`,
      };
    }
    const problems: string[] = [];
    if (!parsed.ok) {
      const at = parsed.position >= 0 ? lineCol(text, parsed.position) : null;
      problems.push(
        at ? `Ringtone, line ${at.line} column ${at.col}: ${parsed.reason}.` : `Ringtone: ${parsed.reason}.`,
      );
    } else {
      if (parsed.song.notes.length === 0) problems.push('The ringtone has no notes.');
      if (fit?.problem) problems.push(fit.problem);
    }
    const name = parsed.ok ? parsed.song.name || 'untitled' : '';
    return {
      kind: 'ringtone',
      text: '',
      fields: { Ringtone: text.trim() },
      problems,
      summary: !parsed.ok
        ? 'Ringtone (the RTTTL text is not valid yet)'
        : fit && fit.size !== null
          ? `Ringtone “${name}”, ${fit.size} bytes`
          : `Ringtone “${name}”`,
    };
  }, [source, libraryNumber, parsed, fit, text]);
  useReportDraft(draft, { source, text, libraryNumber }, onChange);

  function play() {
    if (!parsed.ok) return;
    playing?.stop();
    setPlayError(null);
    const p = playSong(parsed.song);
    setPlaying(p);
    p.done.then(
      () => setPlaying((cur) => (cur === p ? null : cur)),
      (e: unknown) => {
        setPlaying(null);
        setPlayError(e instanceof Error ? e.message : String(e));
      },
    );
  }
  function stop() {
    playing?.stop();
    setPlaying(null);
  }

  async function importFile(file: File) {
    setFileError(null);
    if (file.size > 64 * 1024) {
      setFileError(`${file.name} is ${file.size} bytes; an RTTTL file is a few hundred bytes at most.`);
      return;
    }
    const content = (await file.text()).replace(/^\uFEFF/, '').trim();
    setText(content);
    setSource('text');
  }

  const jumpToError = () => {
    if (parsed.ok || parsed.position < 0 || !textRef.current) return;
    textRef.current.focus();
    textRef.current.setSelectionRange(parsed.position, Math.min(text.length, parsed.position + 1));
  };

  const tempo = parsed.ok ? nearestNokiaTempo(parsed.song.bpm) : null;
  return (
    <div className="media-editor ringtone-editor">
      <fieldset className="row wrap plain-fieldset">
        <legend className="visually-hidden">Ringtone source</legend>
        <label className="check">
          <input
            type="radio"
            name="ringtone-source"
            checked={source === 'text'}
            onChange={() => setSource('text')}
          />
          RTTTL / RTX text
        </label>
        <label className="check">
          <input
            type="radio"
            name="ringtone-source"
            checked={source === 'library'}
            onChange={() => setSource('library')}
          />
          Library
        </label>
      </fieldset>

      {source === 'library' ? (
        <LibraryPicker kinds={['ringtone']} value={libraryNumber} onChange={setLibraryNumber} />
      ) : (
        <>
          <div className="row spread">
            <label htmlFor="rtttl-text">RTTTL / RTX</label>
            <button type="button" onClick={() => fileRef.current?.click()}>
              Import .rtttl/.txt…
            </button>
            <input
              ref={fileRef}
              type="file"
              className="hidden-file"
              accept=".rtttl,.rtx,.txt,text/plain"
              aria-label="Import a ringtone file"
              tabIndex={-1}
              onChange={(e) => {
                const f = e.target.files?.[0];
                e.target.value = '';
                if (f) void importFile(f);
              }}
            />
          </div>
          <textarea
            id="rtttl-text"
            ref={textRef}
            rows={3}
            spellCheck={false}
            className="mono"
            value={text}
            aria-invalid={!parsed.ok}
            aria-describedby="rtttl-status"
            onChange={(e) => setText(e.target.value)}
          />
          {fileError ? (
            <p className="error" role="alert">
              {fileError}
            </p>
          ) : null}
          <div id="rtttl-status" aria-live="polite">
            {parsed.ok ? (
              <div className="ringtone-info row wrap small" data-testid="ringtone-info">
                <span>
                  “{parsed.song.name || 'untitled'}”
                  {parsed.song.name.length > NOKIA_TITLE_MAX
                    ? ` (title cut to ${NOKIA_TITLE_MAX} characters)`
                    : ''}
                </span>
                <span>{parsed.song.notes.length} notes</span>
                <span>
                  Tempo {parsed.song.bpm} bpm
                  {tempo && tempo.bpm !== parsed.song.bpm ? ` (sent as ${tempo.bpm})` : ''}
                </span>
                <span>{(rtttlDurationMs(parsed.song) / 1000).toFixed(1)} s</span>
                {fit && fit.size !== null ? (
                  <span className={fit.problem ? 'error' : ''} data-testid="ringtone-size">
                    Nokia binary {fit.size} bytes
                    {fit.problem ? '' : `, ${fit.sms} SMS`}
                  </span>
                ) : null}
              </div>
            ) : (
              <RtttlErrorView
                text={text}
                reason={parsed.reason}
                position={parsed.position}
                onJump={jumpToError}
              />
            )}
            {parsed.ok && fit?.problem ? (
              <p className="error" role="alert">
                {fit.problem}
              </p>
            ) : null}
          </div>
          {parsed.ok ? <Staff notes={parsed.song.notes} /> : null}
          <div className="row">
            {playing ? (
              <button type="button" onClick={stop}>
                Stop
              </button>
            ) : (
              <button type="button" onClick={play} disabled={!parsed.ok || parsed.song.notes.length === 0}>
                Play
              </button>
            )}
            {playError ? <span className="error small">{playError}</span> : null}
          </div>
        </>
      )}
    </div>
  );
}

function RtttlErrorView({
  text,
  reason,
  position,
  onJump,
}: {
  text: string;
  reason: string;
  position: number;
  onJump(): void;
}) {
  const at = position >= 0 ? lineCol(text, position) : null;
  const from = Math.max(0, position - 24);
  const ch = text.slice(position, position + 1);
  return (
    <div className="rtttl-error" role="alert" data-testid="rtttl-error">
      <p className="error">
        {at ? `Line ${at.line}, column ${at.col}: ` : ''}
        {reason}{' '}
        {at ? (
          <button type="button" className="link" onClick={onJump}>
            Show
          </button>
        ) : null}
      </p>
      {position >= 0 ? (
        <pre className="mono small">
          {from > 0 ? '…' : ''}
          {text.slice(from, position)}
          <mark>{ch === '' ? ' ' : ch}</mark>
          {text.slice(position + 1, position + 24)}
          {position + 24 < text.length ? '…' : ''}
        </pre>
      ) : null}
    </div>
  );
}
