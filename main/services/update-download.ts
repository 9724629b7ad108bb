// Downloading an update's DownloadURL (MobileMessengerVersion) into the Downloads folder, with
// nothing incomplete ever looking complete: the body streams into "<name>.part" (created
// exclusively), which gets the final name only when the body ended and its length is the
// Content-Length (or its chunked encoding ended); a body whose end cannot be verified (neither) is
// refused. On any failure or a cancel the .part is removed. The final name never replaces
// an existing file ("name (1).ext" instead).
//
// Only https, only to an allowed host (checked again on every redirect), certificate errors are
// errors: verification is never turned off. A test trusts its own CA with `ca` (or the process
// with NODE_EXTRA_CA_CERTS, which Node's default trust store includes).
//
// Issue 17: a body over `maxBytes` (default 1 GiB) is refused while it streams (or at once, by its
// Content-Length). "<url>.sig" must hold an Ed25519 signature by one of `publicKeys` of the
// statement "this file is `version`, named <the name it is saved under>" (./update-signature.ts)
// before the .part gets its final name: a missing or wrong one deletes it. Issue 23: that is the
// default. Without any key the download is refused before it starts, and only `allowUnsigned` (the
// deploy policy's updates.allowUnsigned, for a lab) keeps a file that has no .sig at all, marked
// not verified; a .sig that does not verify is refused even then. On Windows the kept file gets
// its Zone.Identifier stream (the Mark of the Web).
import { constants } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { link, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import type { ApiErrorCode } from '../../preload/ipc-contract.ts';
import {
  MAX_SIGNATURE_BYTES,
  newDigest,
  parseSignature,
  verifyUpdate,
  zoneIdentifier,
} from './update-signature.ts';

/** The default size cap of an update download (the policy's updates.maxDownloadBytes). */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024;

/** The download's refusals and failures: the `download-…` codes of the IPC contract's ApiErrorCode. */
export type DownloadErrorCode = Extract<ApiErrorCode, `download-${string}`>;

export class DownloadError extends Error {
  readonly code: DownloadErrorCode;
  constructor(code: DownloadErrorCode, message: string) {
    super(message);
    this.name = 'DownloadError';
    this.code = code;
  }
}

export interface DownloadProgress {
  received: number;
  total: number | null;
}

export interface DownloadOptions {
  url: string;
  /** The Downloads folder (created when missing). */
  dir: string;
  /** Host names a download may come from (exact match, case-insensitive; any port). */
  allowedHosts: readonly string[];
  /** File name when neither Content-Disposition nor the URL's path gives one. */
  fallbackName: string;
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  /** Progress callbacks at most this often, ms (the last one always). Default 100. */
  progressIntervalMs?: number;
  /** Extra trusted CA certificates (PEM) in place of the default store: tests. */
  ca?: string | Buffer;
  /** Default 5. */
  maxRedirects?: number;
  /** The largest body kept, bytes (default DEFAULT_MAX_DOWNLOAD_BYTES). */
  maxBytes?: number;
  /** Keys one of which must have signed the file ("<url>.sig"). */
  publicKeys?: readonly KeyObject[];
  /** The version the file is offered as: part of what the signature covers. */
  version: string;
  /** A file without any .sig is kept, marked not verified (the policy's updates.allowUnsigned). */
  allowUnsigned?: boolean;
  /** Write the Zone.Identifier stream (default: on Windows). */
  markOfTheWeb?: boolean;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  /** The signature was checked and good (false: unsigned, kept because allowUnsigned). */
  verified: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_NAME_CHARS = 120;
const CERT_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME_INVALID/;

/** A host name as the allow-list compares it: lower case, an IPv6 address without its brackets. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
}

/** The URL if it may be downloaded: https and an allowed host; otherwise a DownloadError. */
export function checkDownloadUrl(url: string, allowedHosts: readonly string[]): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DownloadError('download-url-invalid', `the download URL ${JSON.stringify(url)} is not a URL`);
  }
  if (u.protocol !== 'https:') {
    throw new DownloadError(
      'download-url-insecure',
      `the download URL ${u.href} is refused: only https downloads are allowed, not ${u.protocol.replace(':', '')}`,
    );
  }
  const host = normalizeHost(u.hostname);
  const allowed = allowedHosts.map(normalizeHost).filter(Boolean);
  if (!allowed.includes(host)) {
    throw new DownloadError(
      'download-host-not-allowed',
      `the download host ${host} is not allowed (allowed: ${allowed.length ? allowed.join(', ') : 'none'}); an administrator can add it to updates.allowedDownloadHosts`,
    );
  }
  return u;
}

/**
 * Bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069): invisible,
 * they reorder what is shown, so "Setup\u202Egpj.exe" would look like "Setupexe.jpg".
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * Names Windows keeps for devices, with any extension ("NUL.txt", "com1.tar.gz" are the device):
 * a file cannot be created under them. The superscript digits count as well.
 */
const WINDOWS_RESERVED = /^(CON|PRN|AUX|NUL|COM[1-9¹²³]|LPT[1-9¹²³])(\s*\..*)?$/i;

/**
 * A safe file name: no folders, no control, bidi-control or reserved characters, not hidden, not a
 * Windows device name ("_" in front), not too long.
 */
export function safeFileName(name: string): string {
  const cleaned = [...name.replace(BIDI_CONTROLS, '')]
    .map((c) => (c.charCodeAt(0) < 0x20 || c === '\u007f' || '\\/:*?"<>|'.includes(c) ? '_' : c))
    .join('')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .trim();
  if (cleaned === '') return '';
  let short = cleaned;
  if (cleaned.length > MAX_NAME_CHARS) {
    const ext = extname(cleaned).slice(0, 20);
    short = cleaned.slice(0, MAX_NAME_CHARS - ext.length) + ext;
  }
  return WINDOWS_RESERVED.test(short) ? `_${short}` : short;
}

/** The file name a response suggests: Content-Disposition (filename* first), else the URL's last segment. */
export function suggestedName(url: URL, contentDisposition: string | undefined, fallback: string): string {
  const cd = contentDisposition ?? '';
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(cd);
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(cd);
  const candidates: string[] = [];
  if (star?.[1]) {
    try {
      candidates.push(decodeURIComponent(star[1].trim()));
    } catch {
      // a malformed escape: ignore this form
    }
  }
  if (plain) candidates.push(plain[1] ?? plain[2] ?? '');
  const last = url.pathname.split('/').pop() ?? '';
  try {
    candidates.push(decodeURIComponent(last));
  } catch {
    candidates.push(last);
  }
  for (const c of candidates) {
    const safe = safeFileName(c);
    if (safe !== '') return safe;
  }
  return safeFileName(fallback) || 'download';
}

function numbered(name: string, n: number): string {
  if (n === 0) return name;
  const ext = extname(name);
  const stem = ext === '' || ext === name ? name : name.slice(0, -ext.length);
  return `${stem} (${n})${ext === name ? '' : ext}`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The first free "<name>" / "name (n)" whose "<name>.part" could be created exclusively. */
async function reservePart(dir: string, name: string): Promise<{ n: number; part: string; fh: FileHandle }> {
  for (let n = 0; n < 1000; n++) {
    const candidate = join(dir, numbered(name, n));
    if (await exists(candidate)) continue;
    const part = `${candidate}.part`;
    try {
      const fh = await open(part, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
      return { n, part, fh };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
  }
  throw new DownloadError('download-failed', `no free file name for ${name} in ${dir}`);
}

/** Gives the .part its final name without replacing anything; returns the final path. */
async function finish(dir: string, name: string, from: number, part: string): Promise<string> {
  for (let n = from; n < 1000; n++) {
    const target = join(dir, numbered(name, n));
    try {
      // link() fails with EEXIST instead of replacing: no window where an existing file is lost.
      await link(part, target);
      await rm(part, { force: true });
      return target;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      // A file system without hard links (FAT, some network shares): checked rename.
      if (await exists(target)) continue;
      await rename(part, target);
      return target;
    }
  }
  throw new DownloadError('download-failed', `no free file name for ${name} in ${dir}`);
}

function errorCode(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CERT_CODES.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : '';
}

function describe(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    if (e instanceof Error && e.message && !parts.includes(e.message)) parts.push(e.message);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(': ') || String(err);
}

/** Streams `opts.url` into the Downloads folder; see the file comment for the guarantees. */
export async function downloadFile(opts: DownloadOptions): Promise<DownloadResult> {
  const signal = opts.signal;
  const cancelled = (): DownloadError =>
    new DownloadError('download-cancelled', 'the download was cancelled; nothing was kept');
  if (signal?.aborted) throw cancelled();
  const start = checkDownloadUrl(opts.url, opts.allowedHosts);
  const keys = opts.publicKeys ?? [];
  if (keys.length === 0 && opts.allowUnsigned !== true)
    throw new DownloadError(
      'download-unverified',
      'no update key is configured, so no download could be verified: nothing was downloaded (a lab may allow unsigned updates with updates.allowUnsigned)',
    );
  const agent: Agent | null = opts.ca !== undefined ? new Agent({ connect: { ca: opts.ca } }) : null;
  const dispatcher: Dispatcher | undefined = agent ?? undefined;
  let fh: FileHandle | null = null;
  let part: string | null = null;
  try {
    const { res, url } = await getFollowingRedirects(
      start,
      opts.url,
      opts.allowedHosts,
      { dispatcher, signal, maxRedirects: opts.maxRedirects ?? 5 },
      (err, at) => {
        if (signal?.aborted) return cancelled();
        const code = errorCode(err);
        if (CERT_CODES.test(code))
          return new DownloadError(
            'download-certificate',
            `the certificate of ${at.host} is not trusted (${code}); the download was refused`,
          );
        return new DownloadError('download-failed', `the download from ${at.host} failed: ${describe(err)}`);
      },
    );
    if (res.statusCode < 200 || res.statusCode > 299) {
      await res.body.dump().catch(() => undefined);
      throw new DownloadError(
        'download-http-error',
        `the download server answered HTTP ${res.statusCode} for ${url.href}`,
      );
    }
    const lengthHeader = res.headers['content-length'];
    const total =
      typeof lengthHeader === 'string' && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
    // Whether the end of the body can be told from a cut: with a Content-Length the length is
    // compared below; a chunked body ends with its last chunk (undici fails a cut one). A body with
    // neither ends when the connection closes, so a dropped connection looks like the end: such a
    // download cannot be verified and is refused before anything is written.
    const te = res.headers['transfer-encoding'];
    const chunked = (Array.isArray(te) ? te.join(',') : (te ?? '')).toLowerCase().includes('chunked');
    if (total === null && !chunked) {
      // Not read at all: the connection cannot be reused (the body ends with it) and may be slow.
      res.body.destroy();
      throw new DownloadError(
        'download-incomplete',
        `the server did not say how long the file is (no Content-Length, not chunked), so a cut download could not be told from a complete one: ${url.href} was not downloaded; nothing was kept`,
      );
    }
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
    const tooLarge = (): DownloadError =>
      new DownloadError(
        'download-too-large',
        `the download is larger than the ${maxBytes} bytes allowed (updates.maxDownloadBytes); nothing was kept`,
      );
    if (total !== null && total > maxBytes) {
      res.body.destroy();
      throw tooLarge();
    }
    const cd = res.headers['content-disposition'];
    const name = suggestedName(url, typeof cd === 'string' ? cd : undefined, opts.fallbackName);
    await mkdir(opts.dir, { recursive: true });
    const reserved = await reservePart(opts.dir, name);
    fh = reserved.fh;
    part = reserved.part;

    let received = 0;
    let lastReport = 0;
    const interval = opts.progressIntervalMs ?? 100;
    opts.onProgress?.({ received, total });
    const digest = newDigest();
    let over = false;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        received += chunk.byteLength;
        if (received > maxBytes) {
          over = true;
          res.body.destroy();
          break;
        }
        await fh.write(chunk);
        digest.update(chunk);
        if (total !== null && received > total) break;
        const now = Date.now();
        if (now - lastReport >= interval) {
          lastReport = now;
          opts.onProgress?.({ received, total });
        }
      }
    } catch (err) {
      if (signal?.aborted) throw cancelled();
      throw new DownloadError(
        'download-incomplete',
        `the download stopped after ${received} of ${total ?? 'an unknown number of'} bytes: ${describe(err)}; nothing was kept`,
      );
    }
    if (signal?.aborted) throw cancelled();
    if (over) throw tooLarge();
    if (total !== null && received !== total) {
      throw new DownloadError(
        'download-incomplete',
        `the download has ${received} bytes but the server announced ${total}; nothing was kept`,
      );
    }
    opts.onProgress?.({ received, total });
    await fh.sync();
    await fh.close();
    fh = null;
    let verified = false;
    const sigUrl = `${opts.url}.sig`;
    const body = keys.length > 0 ? await fetchSmall(sigUrl, opts.allowedHosts, dispatcher, signal) : null;
    if (signal?.aborted) throw cancelled();
    if (body === null) {
      if (opts.allowUnsigned !== true)
        throw new DownloadError(
          'download-unverified',
          `the update has no signature (${sigUrl} was not found), so it cannot be trusted; the file was deleted`,
        );
    } else {
      const sig = parseSignature(body);
      if (sig === null || !verifyUpdate({ sha512: digest.digest(), version: opts.version, name }, sig, keys))
        throw new DownloadError(
          'download-unverified',
          `the update's signature (${sigUrl}) does not match the file, its version ${opts.version} and name ${name} and the publisher's key: it may have been altered or be an older release offered again; the file was deleted`,
        );
      verified = true;
    }
    const path = await finish(opts.dir, name, reserved.n, part);
    part = null;
    if (opts.markOfTheWeb ?? process.platform === 'win32') {
      // NTFS only; elsewhere (FAT, a network share) Windows has nowhere to keep it.
      await writeFile(`${path}:Zone.Identifier`, zoneIdentifier(url.href)).catch(() => undefined);
    }
    return { path, bytes: received, verified };
  } finally {
    if (fh) await fh.close().catch(() => undefined);
    if (part) await rm(part, { force: true }).catch(() => undefined);
    if (agent) await agent.close().catch(() => undefined);
  }
}

/**
 * A small file (the .sig) over the same rules as the download (https, allowed hosts on every
 * redirect): its bytes, null on 404/410; any other failure is a DownloadError.
 */
async function fetchSmall(
  href: string,
  allowedHosts: readonly string[],
  dispatcher: Dispatcher | undefined,
  signal: AbortSignal | undefined,
): Promise<Buffer | null> {
  const { res, url } = await getFollowingRedirects(
    checkDownloadUrl(href, allowedHosts),
    href,
    allowedHosts,
    { dispatcher, signal, maxRedirects: 5 },
    (err, at) =>
      new DownloadError(
        'download-failed',
        `the signature could not be fetched from ${at.host}: ${describe(err)}`,
      ),
  );
  if (res.statusCode === 404 || res.statusCode === 410) {
    await res.body.dump();
    return null;
  }
  if (res.statusCode < 200 || res.statusCode > 299) {
    await res.body.dump();
    throw new DownloadError(
      'download-http-error',
      `the signature server answered HTTP ${res.statusCode} for ${url.href}`,
    );
  }
  const parts: Buffer[] = [];
  let n = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    n += chunk.byteLength;
    if (n > MAX_SIGNATURE_BYTES) {
      res.body.destroy();
      return Buffer.alloc(0);
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/**
 * GETs `start` (already checked), following redirects, each target checked again against the
 * allowed hosts (https only); at most `maxRedirects` of them. Returns the final response, not yet
 * read, and its URL. `failed` says what a request that threw means (the URL it went to).
 */
async function getFollowingRedirects(
  start: URL,
  from: string,
  allowedHosts: readonly string[],
  how: { dispatcher: Dispatcher | undefined; signal: AbortSignal | undefined; maxRedirects: number },
  failed: (err: unknown, url: URL) => DownloadError,
): Promise<{ res: Dispatcher.ResponseData; url: URL }> {
  let url = start;
  for (let hop = 0; ; hop++) {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: 'GET',
        headers: { accept: '*/*', 'user-agent': 'Messenger-updater' },
        ...(how.dispatcher ? { dispatcher: how.dispatcher } : {}),
        ...(how.signal ? { signal: how.signal } : {}),
      });
    } catch (err) {
      throw failed(err, url);
    }
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode) || typeof location !== 'string') return { res, url };
    await res.body.dump();
    if (hop >= how.maxRedirects)
      throw new DownloadError('download-failed', `too many redirects from ${from}`);
    url = checkDownloadUrl(new URL(location, url).href, allowedHosts);
  }
}
