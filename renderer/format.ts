// Small formatting helpers (no protocol knowledge here beyond the SendTimeAbsolute pattern).
import { SEND_TIME_ABSOLUTE_PATTERN } from '../protocol/limits.ts';
import { api } from './api.ts';

/** A datetime-local value (the user's local time) as UTC YYYY-MM-DDTHH:MM:SS, or null. */
export function toUtcSendTime(local: string): string | null {
  if (!local) return null;
  const d = new Date(local);
  if (Number.isNaN(d.getTime())) return null;
  const s = d.toISOString().slice(0, 19);
  return SEND_TIME_ABSOLUTE_PATTERN.test(s) ? s : null;
}

export function formatTime(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  const today = new Date();
  return d.toDateString() === today.toDateString()
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

export function displayNumber(n: string): string {
  return /^\d+$/.test(n) ? `+${n}` : n;
}

/** Offer text as a file download (CSV exports). */
export function download(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  if (!type.startsWith('text/csv')) return save(name, text, type);
  // Issue 26: with settings.csvBom, a CSV starts with U+FEFF (the UTF-8 byte-order mark), which
  // spreadsheet programs need to read it as UTF-8 rather than their local code page.
  void api()
    .settings.get()
    .then(
      (s) => s.csvBom,
      () => false,
    )
    .then((bom) => save(name, bom ? `\uFEFF${text}` : text, type));
}

function save(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Split a search snippet's \u0002…\u0003 marks into plain and highlighted parts. */
export function snippetParts(snippet: string): Array<{ text: string; hit: boolean }> {
  // The service marks matches with U+0002 … U+0003 (preload/api.ts MessageHit).
  const out: Array<{ text: string; hit: boolean }> = [];
  const parts = snippet.split(String.fromCharCode(2));
  if (parts[0]) out.push({ text: parts[0], hit: false });
  for (const part of parts.slice(1)) {
    const end = part.indexOf(String.fromCharCode(3));
    if (end < 0) {
      out.push({ text: part, hit: false });
      continue;
    }
    out.push({ text: part.slice(0, end), hit: true });
    if (end + 1 < part.length) out.push({ text: part.slice(end + 1), hit: false });
  }
  return out;
}

/** "1 recipient", "3 recipients", "1,204 recipients" (issue 12: no "(s)"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
