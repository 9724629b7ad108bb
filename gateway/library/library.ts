// The content library (spec 2.4, 2.5, 8): files stored under a 5-digit library number in the range of
// their kind, so the same content can be resent by number. Public files (owner NULL) are seeded at
// start-up; files uploaded through sendmms go to the uploading account's private library. Another
// account's private number is refused exactly like an unknown number (no existence oracle).
import type { DatabaseSync } from 'node:sqlite';
import { LIBRARY_RANGES, LIMITS, parseLibraryNumber } from '../../protocol/limits.ts';
import { encodeMms, MMS_CONTENT_TYPE } from './mms.ts';
import { encodeWbmp } from './adapt.ts';
import { transaction } from '../store/db.ts';
import { bitmapFromRows, encodeOtaBitmap } from '../../protocol/smart/ota-bitmap.ts';
import type { SandboxLibraryKind } from '../../protocol/sandbox-routes.ts';

/** The library's kinds of file, as its sandbox route names them (protocol/sandbox-routes.ts). */
export type LibraryKind = SandboxLibraryKind;

/**
 * Number range per kind. The spec's ranges come from protocol/; the spec gives none for ringtones
 * ("monophonic library number"), so this gateway keeps them in 30000-39999.
 */
export const RINGTONE_RANGE = [30000, 39999] as const;
export const KIND_RANGES: Record<LibraryKind, readonly [number, number]> = {
  picture: LIBRARY_RANGES.pictureMessage,
  'group-graphic': LIBRARY_RANGES.groupGraphic,
  'operator-logo': LIBRARY_RANGES.operatorLogo,
  ringtone: RINGTONE_RANGE,
  mms: LIBRARY_RANGES.mmsFile,
  wap: LIBRARY_RANGES.wapFile,
};

export interface LibraryFile {
  number: number;
  kind: LibraryKind;
  ownerAccountId: number | null;
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

export type LibraryLookup =
  { ok: true; file: LibraryFile } | { ok: false; reason: 'format' | 'range' | 'not-found'; message: string };

export class LibraryFullError extends Error {}

interface Row {
  number: number;
  kind: string;
  owner_account_id: number | null;
  name: string;
  content_type: string;
  bytes: Uint8Array;
}

function toFile(row: Row): LibraryFile {
  return {
    number: row.number,
    kind: row.kind as LibraryKind,
    ownerAccountId: row.owner_account_id,
    name: row.name,
    contentType: row.content_type,
    bytes: new Uint8Array(row.bytes),
  };
}

/**
 * Stores a file and returns its new library number: the next free number in the range of its kind.
 * Runs in an immediate transaction (or the caller's), so two gateway instances on one data directory
 * never hand out the same number.
 */
export function addLibraryFile(
  db: DatabaseSync,
  file: {
    kind: LibraryKind;
    ownerAccountId: number | null;
    name: string;
    contentType: string;
    bytes: Uint8Array;
  },
): number {
  const [lo, hi] = KIND_RANGES[file.kind];
  const run = (): number => {
    const row = db
      .prepare('SELECT MAX(number) AS n FROM library_files WHERE number BETWEEN ? AND ?')
      .get(lo, hi) as { n: number | null } | undefined;
    const next = row?.n === null || row?.n === undefined ? lo : row.n + 1;
    if (next > hi) throw new LibraryFullError(`library range ${lo}-${hi} is full`);
    db.prepare(
      'INSERT INTO library_files (number, kind, owner_account_id, name, content_type, bytes) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(next, file.kind, file.ownerAccountId, file.name, file.contentType, file.bytes);
    return next;
  };
  return transaction(db, run);
}

/**
 * Looks up a library number for an account: the file must be public or the account's own (for a
 * SHARED or TRANSFER child, the parent's files count as its own too when parentId is given), and of
 * one of the accepted kinds.
 */
export function getLibraryFile(
  db: DatabaseSync,
  value: string | number,
  account: { id: number; parentId?: number | null },
  kinds: ReadonlyArray<LibraryKind>,
): LibraryLookup {
  const text = String(value).trim();
  const n = parseLibraryNumber(text);
  if (n === null)
    return {
      ok: false,
      reason: 'format',
      message: `library number ${text} is not ${LIMITS.libraryNumberDigits} digits`,
    };
  if (!kinds.some((k) => n >= KIND_RANGES[k][0] && n <= KIND_RANGES[k][1])) {
    const ranges = [...new Set(kinds.map((k) => KIND_RANGES[k].join('-')))].join(' or ');
    return { ok: false, reason: 'range', message: `library number ${n} is outside ${ranges}` };
  }
  const row = db.prepare('SELECT * FROM library_files WHERE number = ?').get(n) as Row | undefined;
  const owners = [account.id, account.parentId ?? null].filter((x) => x !== null);
  if (
    !row ||
    (row.owner_account_id !== null && !owners.includes(row.owner_account_id)) ||
    !kinds.includes(row.kind as LibraryKind)
  )
    return {
      ok: false,
      reason: 'not-found',
      message: `library number ${n} is not available to this account`,
    };
  return { ok: true, file: toFile(row) };
}

/** Files visible to an account (public and its own), without their bytes. */
export function listLibrary(
  db: DatabaseSync,
  accountId: number | null,
): Array<Omit<LibraryFile, 'bytes'> & { size: number }> {
  const rows = db
    .prepare(
      'SELECT number, kind, owner_account_id, name, content_type, length(bytes) AS size FROM library_files ' +
        'WHERE owner_account_id IS NULL OR owner_account_id = ? ORDER BY number',
    )
    .all(accountId) as Array<Omit<Row, 'bytes'> & { size: number }>;
  return rows.map((r) => ({
    number: r.number,
    kind: r.kind as LibraryKind,
    ownerAccountId: r.owner_account_id,
    name: r.name,
    contentType: r.content_type,
    size: r.size,
  }));
}

// --- the public library seed -------------------------------------------------------------------

const otaBitmap = (rows: string[]): Uint8Array => encodeOtaBitmap(bitmapFromRows(rows));

function banner(width: number, height: number, draw: (x: number, y: number) => boolean): string[] {
  const rows: string[] = [];
  for (let y = 0; y < height; y++) {
    let row = '';
    for (let x = 0; x < width; x++) row += draw(x, y) ? '#' : '.';
    rows.push(row);
  }
  return rows;
}

const SEED_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAUAAAADwCAYAAABxLb1rAAAC4klEQVR4Ae3BAQ3CAAADsLHgiGtC1DXdE7ggD2v7eL2vTwAGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKgGYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKgGYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKhnuJXrfYT/dZxXuI8GYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKgGYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKgGYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKgGYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKgGYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFHPcCvHeQX4jQZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKgGYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARjVAIxqAEY1AKMagFENwKgGYFQDMKoBGNUAjGoARjUAoxqAUQ3AqAZgVAMwqgEY1QCMagBGNQCjGoBRDcCoBmBUAzCqARj1BUgcCOJMG6clAAAAAElFTkSuQmCC';

export interface SeedItem {
  number: number;
  kind: LibraryKind;
  name: string;
  contentType: string;
  bytes: () => Uint8Array;
}

const enc = (s: string) => new TextEncoder().encode(s);
const border = (w: number, h: number) => (x: number, y: number) =>
  x === 0 || y === 0 || x === w - 1 || y === h - 1;

/** The public library every gateway starts with (documented in docs/GATEWAY.md). */
export const PUBLIC_SEED: ReadonlyArray<SeedItem> = [
  {
    number: 10000,
    kind: 'operator-logo',
    name: 'framed-logo.otb',
    contentType: 'image/x-ota-bitmap',
    bytes: () => otaBitmap(banner(72, 14, border(72, 14))),
  },
  {
    number: 10001,
    kind: 'operator-logo',
    name: 'stripes-logo.otb',
    contentType: 'image/x-ota-bitmap',
    bytes: () => otaBitmap(banner(72, 14, (x) => x % 8 < 4)),
  },
  {
    number: 10002,
    kind: 'group-graphic',
    name: 'checker-group.otb',
    contentType: 'image/x-ota-bitmap',
    bytes: () => otaBitmap(banner(72, 14, (x, y) => ((x >> 2) + (y >> 2)) % 2 === 0)),
  },
  {
    number: 20000,
    kind: 'picture',
    name: 'framed-picture.otb',
    contentType: 'image/x-ota-bitmap',
    bytes: () => otaBitmap(banner(72, 28, border(72, 28))),
  },
  {
    number: 20001,
    kind: 'picture',
    name: 'diagonal-picture.otb',
    contentType: 'image/x-ota-bitmap',
    bytes: () => otaBitmap(banner(72, 28, (x, y) => (x + y) % 6 === 0)),
  },
  {
    number: 30000,
    kind: 'ringtone',
    name: 'nokia-tune.rtttl',
    contentType: 'audio/x-rtttl',
    bytes: () => enc('NokiaTune:d=4,o=5,b=225:8e6,8d6,f#,g#,8c#6,8b,d,e,8b,8a,c#,e,2a'),
  },
  {
    number: 30001,
    kind: 'ringtone',
    name: 'scale.rtttl',
    contentType: 'audio/x-rtttl',
    bytes: () => enc('Scale:d=8,o=5,b=140:c,d,e,f,g,a,b,c6'),
  },
  {
    number: 30002,
    kind: 'ringtone',
    name: 'beeps.rtttl',
    contentType: 'audio/x-rtttl',
    bytes: () => enc('Beeps:d=16,o=6,b=200:a,p,a,p,a,4p,a,p,a'),
  },
  { number: 80000, kind: 'mms', name: 'welcome.mms', contentType: MMS_CONTENT_TYPE, bytes: () => seedMms() },
  {
    number: 80001,
    kind: 'wap',
    name: 'welcome.png',
    contentType: 'image/png',
    bytes: () => Uint8Array.from(Buffer.from(SEED_PNG_BASE64, 'base64')),
  },
  {
    number: 80002,
    kind: 'wap',
    name: 'welcome.wbmp',
    contentType: 'image/vnd.wap.wbmp',
    bytes: () => seedWbmp(),
  },
];

function seedWbmp(): Uint8Array {
  const w = 64;
  const h = 32;
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      rgba.set((x + y) % 8 < 4 ? [0, 0, 0, 255] : [255, 255, 255, 255], (y * w + x) * 4);
  return encodeWbmp(w, h, rgba);
}

function seedMms(): Uint8Array {
  return encodeMms({
    subject: 'Welcome',
    contentType: 'application/vnd.wap.multipart.related',
    start: 'smil',
    parts: [
      {
        contentType: 'application/smil',
        name: 'welcome.smil',
        contentId: 'smil',
        bytes: enc(
          '<smil><body><par dur="5000ms"><img src="welcome.png" region="Image"/><text src="welcome.txt" region="Text"/></par></body></smil>',
        ),
      },
      {
        contentType: 'image/png',
        name: 'welcome.png',
        contentId: 'welcome.png',
        bytes: Uint8Array.from(Buffer.from(SEED_PNG_BASE64, 'base64')),
      },
      {
        contentType: 'text/plain',
        name: 'welcome.txt',
        contentId: 'welcome.txt',
        bytes: enc('Welcome to the sandbox gateway.'),
      },
    ],
  });
}

/** Inserts the public seed files that are missing (idempotent; safe with two instances at once). */
export function seedPublicLibrary(db: DatabaseSync): void {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO library_files (number, kind, owner_account_id, name, content_type, bytes) VALUES (?, ?, NULL, ?, ?, ?)',
  );
  const have = new Set(
    (
      db.prepare('SELECT number FROM library_files WHERE owner_account_id IS NULL').all() as Array<{
        number: number;
      }>
    ).map((r) => r.number),
  );
  for (const item of PUBLIC_SEED)
    if (!have.has(item.number)) insert.run(item.number, item.kind, item.name, item.contentType, item.bytes());
}
