// The 1-bit bitmap editor of operator logos, group graphics and picture messages: a canvas grid
// with pencil, eraser and flood fill, invert, clear, undo/redo (Ctrl+Z, Ctrl+Y), a keyboard cursor
// (arrows move, Space applies the tool), and image import dithered to 1 bit with a threshold.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Bitmap } from '../../../protocol/smart/ota-bitmap.ts';
import { createBitmap } from '../../../protocol/smart/ota-bitmap.ts';
import {
  blackCount,
  clearBitmap,
  floodFill,
  historyOf,
  invertBitmap,
  pushHistory,
  redo,
  setPixel,
  undo,
  type History,
} from './bitmap-ops.ts';
import { ditherToBitmap } from './dither.ts';
import { IMAGE_ACCEPT, imageFileToRgba } from './image-import.ts';

export type Tool = 'pencil' | 'eraser' | 'fill';
const TOOLS: ReadonlyArray<{ id: Tool; label: string; key: string }> = [
  { id: 'pencil', label: 'Pencil', key: 'P' },
  { id: 'eraser', label: 'Eraser', key: 'E' },
  { id: 'fill', label: 'Fill', key: 'F' },
];

export interface BitmapEditorProps {
  width: number;
  height: number;
  /** Accessible name of the drawing surface, e.g. "Operator logo". */
  label: string;
  /** The drawing to start from (a restored draft); blank when absent. */
  initial?: Bitmap | undefined;
  onChange(bitmap: Bitmap): void;
}

interface ImportState {
  rgba: Uint8ClampedArray;
  name: string;
}

export function BitmapEditor({ width, height, label, initial, onChange }: BitmapEditorProps) {
  const [history, setHistory] = useState<History<Bitmap>>(() =>
    historyOf(
      initial && initial.width === width && initial.height === height ? initial : createBitmap(width, height),
    ),
  );
  const [tool, setTool] = useState<Tool>('pencil');
  const [cursor, setCursor] = useState({ x: 0, y: 0 });
  const [focused, setFocused] = useState(false);
  const [imported, setImported] = useState<ImportState | null>(null);
  const [threshold, setThreshold] = useState(128);
  const [dither, setDither] = useState(true);
  const [importError, setImportError] = useState<string | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const previewRef = useRef<HTMLCanvasElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const stroke = useRef<0 | 1 | null>(null);
  const bitmap = history.present;
  const cell = Math.max(4, Math.floor(720 / width));

  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(() => onChangeRef.current(bitmap), [bitmap]);

  // Paint the grid: black pixels, faint grid lines, the keyboard cursor when focused.
  useEffect(() => {
    const canvas = canvasRef.current;
    const g = canvas?.getContext('2d');
    if (!canvas || !g) return;
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = '#111111';
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        if (bitmap.pixels[y * width + x]) g.fillRect(x * cell, y * cell, cell, cell);
    g.strokeStyle = 'rgba(120,130,140,0.35)';
    g.lineWidth = 1;
    g.beginPath();
    for (let x = 0; x <= width; x++) {
      g.moveTo(x * cell + 0.5, 0);
      g.lineTo(x * cell + 0.5, height * cell);
    }
    for (let y = 0; y <= height; y++) {
      g.moveTo(0, y * cell + 0.5);
      g.lineTo(width * cell, y * cell + 0.5);
    }
    g.stroke();
    // The handset-size preview: two screen pixels per bitmap pixel, no grid.
    const preview = previewRef.current?.getContext('2d');
    if (preview) {
      preview.fillStyle = '#c7d3b0';
      preview.fillRect(0, 0, width * 2, height * 2);
      preview.fillStyle = '#1d2410';
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          if (bitmap.pixels[y * width + x]) preview.fillRect(x * 2, y * 2, 2, 2);
    }
    if (focused) {
      g.strokeStyle = '#1f6feb';
      g.lineWidth = 2;
      g.strokeRect(cursor.x * cell + 1, cursor.y * cell + 1, cell - 2, cell - 2);
    }
  }, [bitmap, cell, width, height, cursor, focused]);

  const edit = useCallback((f: (b: Bitmap) => Bitmap) => {
    setImported(null);
    setHistory((h) => pushHistory(h, f(h.present)));
  }, []);

  /** Applies the tool at (x, y); a pencil/eraser drag continues the same undo step. */
  function apply(x: number, y: number, continuing: boolean) {
    if (tool === 'fill') {
      if (!continuing) edit((b) => floodFill(b, x, y, b.pixels[y * width + x] ? 0 : 1));
      return;
    }
    const value: 0 | 1 = tool === 'pencil' ? 1 : 0;
    if (continuing) setHistory((h) => ({ ...h, present: setPixel(h.present, x, y, value) }));
    else edit((b) => setPixel(b, x, y, value));
  }

  function cellAt(e: PointerEvent<HTMLCanvasElement>): { x: number; y: number } | null {
    const r = e.currentTarget.getBoundingClientRect();
    const x = Math.floor(((e.clientX - r.left) / r.width) * width);
    const y = Math.floor(((e.clientY - r.top) / r.height) * height);
    return x >= 0 && y >= 0 && x < width && y < height ? { x, y } : null;
  }

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    const c = cellAt(e);
    if (!c) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    stroke.current = tool === 'pencil' ? 1 : 0;
    setCursor(c);
    apply(c.x, c.y, false);
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    if (stroke.current === null || tool === 'fill') return;
    const c = cellAt(e);
    if (c) apply(c.x, c.y, true);
  };
  const endStroke = () => {
    stroke.current = null;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const mod = e.ctrlKey || e.metaKey;
    const k = e.key.toLowerCase();
    if (mod && k === 'z' && !e.shiftKey) {
      e.preventDefault();
      setImported(null);
      setHistory(undo);
    } else if (mod && (k === 'y' || (k === 'z' && e.shiftKey))) {
      e.preventDefault();
      setImported(null);
      setHistory(redo);
    }
  };

  const onCanvasKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      const step = e.shiftKey ? 8 : 1;
      setCursor((c) => ({
        x: Math.min(width - 1, Math.max(0, c.x + m[0] * step)),
        y: Math.min(height - 1, Math.max(0, c.y + m[1] * step)),
      }));
    } else if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      apply(cursor.x, cursor.y, false);
    } else {
      const t = TOOLS.find((x) => x.key.toLowerCase() === e.key.toLowerCase());
      if (t) {
        e.preventDefault();
        setTool(t.id);
      }
    }
  };

  async function importFile(file: File) {
    setImportError(null);
    try {
      const rgba = await imageFileToRgba(file, width, height);
      setImported({ rgba, name: file.name });
      setHistory((h) => pushHistory(h, ditherToBitmap(rgba, width, height, { threshold, dither })));
    } catch (err) {
      setImportError(`${file.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Re-dithers the imported image with new settings (the same undo step as the import). */
  function redither(next: { threshold?: number; dither?: boolean }) {
    const t = next.threshold ?? threshold;
    const d = next.dither ?? dither;
    setThreshold(t);
    setDither(d);
    if (imported)
      setHistory((h) => ({
        ...h,
        present: ditherToBitmap(imported.rgba, width, height, { threshold: t, dither: d }),
      }));
  }

  const black = blackCount(bitmap);
  return (
    <div className="bitmap-editor" onKeyDown={onKeyDown}>
      <div className="row wrap" role="toolbar" aria-label={`${label} tools`}>
        {TOOLS.map((t) => (
          <button
            key={t.id}
            type="button"
            aria-pressed={tool === t.id}
            className={tool === t.id ? 'tool active' : 'tool'}
            onClick={() => setTool(t.id)}
            title={`${t.label} (${t.key})`}
          >
            {t.label}
          </button>
        ))}
        <span className="toolbar-gap" />
        <button type="button" onClick={() => edit(invertBitmap)}>
          Invert
        </button>
        <button type="button" onClick={() => edit(clearBitmap)} disabled={black === 0}>
          Clear
        </button>
        <button
          type="button"
          onClick={() => setHistory(undo)}
          disabled={history.past.length === 0}
          title="Ctrl+Z"
        >
          Undo
        </button>
        <button
          type="button"
          onClick={() => setHistory(redo)}
          disabled={history.future.length === 0}
          title="Ctrl+Y"
        >
          Redo
        </button>
        <button type="button" onClick={() => fileRef.current?.click()}>
          Import image…
        </button>
        <input
          ref={fileRef}
          type="file"
          className="hidden-file"
          accept={IMAGE_ACCEPT}
          aria-label={`Import an image into the ${label.toLowerCase()}`}
          tabIndex={-1}
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void importFile(f);
          }}
        />
      </div>
      <canvas
        ref={canvasRef}
        className="bitmap-canvas"
        width={width * cell}
        height={height * cell}
        tabIndex={0}
        role="img"
        aria-label={`${label}, ${width} by ${height} pixels, ${black} black. Arrow keys move the cursor, Space applies the tool, P pencil, E eraser, F fill.`}
        data-testid="bitmap-canvas"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endStroke}
        onPointerCancel={endStroke}
        onKeyDown={onCanvasKey}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      />
      <div className="row wrap small muted">
        <canvas
          ref={previewRef}
          className="bitmap-preview"
          width={width * 2}
          height={height * 2}
          title="As a handset shows it"
          aria-hidden="true"
        />
        <span data-testid="bitmap-status">
          {width}×{height}, {black} black pixel{black === 1 ? '' : 's'}
        </span>
        {focused ? (
          <span>
            cursor {cursor.x + 1},{cursor.y + 1}
          </span>
        ) : null}
      </div>
      {imported ? (
        <div className="row wrap import-settings">
          <span className="small">Imported {imported.name}</span>
          <label className="inline">
            Threshold {threshold}
            <input
              type="range"
              min={0}
              max={255}
              value={threshold}
              aria-label="Threshold"
              onChange={(e) => redither({ threshold: Number(e.target.value) })}
            />
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={dither}
              onChange={(e) => redither({ dither: e.target.checked })}
            />{' '}
            Dither (Floyd–Steinberg)
          </label>
        </div>
      ) : null}
      {importError ? (
        <p className="error" role="alert">
          {importError}
        </p>
      ) : null}
    </div>
  );
}
