// MMS message files (.mms): the OMA MMS encapsulation (MMS-ENC 1.2) of an m-send-req with a WSP
// multipart body (application/vnd.wap.multipart.related with a SMIL start part, or .mixed without one).
// Hand-written: no maintained JavaScript library encodes MMS PDUs, and the subset needed here (a few
// headers, WSP content types, multipart entries) is small. Also composes an MMS from a ZIP of components
// (fflate reads the ZIP) as spec 2.4 describes for MMSNotificationFileName1=*.zip.
import { Unzip, UnzipInflate, unzipSync } from 'fflate';

export const MMS_CONTENT_TYPE = 'application/vnd.wap.mms-message';

export interface MmsPart {
  contentType: string;
  /** Content-Location (file name) */
  name: string;
  contentId?: string;
  bytes: Uint8Array;
}

export interface MmsMessage {
  subject?: string;
  transactionId?: string;
  /** content type of the message body: multipart.related (with SMIL) or multipart.mixed */
  contentType: string;
  /** Content-ID of the SMIL start part, when related */
  start?: string;
  parts: MmsPart[];
}

const MESSAGE_TYPE = 0x8c;
const TRANSACTION_ID = 0x98;
const MMS_VERSION = 0x8d;
const FROM = 0x89;
const SUBJECT = 0x96;
const CONTENT_TYPE = 0x84;
const M_SEND_REQ = 0x80;
const M_RETRIEVE_CONF = 0x84;
const DATE = 0x85;
const MULTIPART_RELATED = 'application/vnd.wap.multipart.related';
const MULTIPART_MIXED = 'application/vnd.wap.multipart.mixed';
// WSP well-known media (WAP-230 table 40), only those we read or write as short integers
const WELL_KNOWN_MEDIA: Record<number, string> = {
  0x03: 'text/plain',
  0x1d: 'image/gif',
  0x1e: 'image/jpeg',
  0x20: 'image/png',
  0x21: 'image/vnd.wap.wbmp',
  0x23: MULTIPART_MIXED,
  0x33: MULTIPART_RELATED,
};
const UTF8_MIB = 106;

export class MmsError extends Error {}

class Writer {
  bytes: number[] = [];
  byte(b: number): void {
    this.bytes.push(b & 0xff);
  }
  raw(data: Uint8Array | number[]): void {
    for (const b of data) this.bytes.push(b);
  }
  uintvar(n: number): void {
    const out: number[] = [n & 0x7f];
    let v = Math.floor(n / 128);
    while (v > 0) {
      out.unshift((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.raw(out);
  }
  text(s: string): void {
    const enc = new TextEncoder().encode(s);
    if (enc.length > 0 && (enc[0] ?? 0) >= 0x80) this.byte(0x7f);
    this.raw(enc);
    this.byte(0);
  }
  valueLength(n: number): void {
    if (n < 31) this.byte(n);
    else {
      this.byte(31);
      this.uintvar(n);
    }
  }
}

function mediaCode(type: string): number | undefined {
  for (const [code, name] of Object.entries(WELL_KNOWN_MEDIA)) if (name === type) return Number(code);
  return undefined;
}

function encodePartContentType(w: Writer, contentType: string): void {
  const inner = new Writer();
  const code = mediaCode(contentType);
  if (code !== undefined) inner.byte(code | 0x80);
  else inner.text(contentType);
  if (contentType.startsWith('text/')) {
    inner.byte(0x81); // Charset
    inner.byte(UTF8_MIB | 0x80);
  }
  w.valueLength(inner.bytes.length);
  w.raw(inner.bytes);
}

/**
 * Encodes an m-send-req MMS file, or (`retrieved`: the time in seconds) the m-retrieve-conf a handset
 * gets when it fetches the notification's content location (MMS-ENC 1.2, 6.3: Date required; From
 * as the sender's address, here the insert-address token the relay fills; issue 24).
 */
export function encodeMms(msg: MmsMessage, retrieved?: { date: number }): Uint8Array {
  const w = new Writer();
  w.byte(MESSAGE_TYPE);
  w.byte(retrieved === undefined ? M_SEND_REQ : M_RETRIEVE_CONF);
  w.byte(TRANSACTION_ID);
  w.text(msg.transactionId ?? 'gateway');
  w.byte(MMS_VERSION);
  w.byte(0x92); // 1.2
  if (retrieved !== undefined) {
    // Long-integer: Short-length, then the value in big-endian octets
    const octets: number[] = [];
    for (
      let v = Math.max(0, Math.floor(retrieved.date));
      v > 0 || octets.length === 0;
      v = Math.floor(v / 256)
    )
      octets.unshift(v % 256);
    w.byte(DATE);
    w.byte(octets.length);
    w.raw(octets);
  }
  w.byte(FROM);
  w.byte(1);
  w.byte(0x81); // insert-address-token
  if (msg.subject !== undefined && msg.subject !== '') {
    w.byte(SUBJECT);
    const inner = new Writer();
    inner.byte(UTF8_MIB | 0x80);
    inner.text(msg.subject);
    w.valueLength(inner.bytes.length);
    w.raw(inner.bytes);
  }
  w.byte(CONTENT_TYPE);
  const ct = new Writer();
  const code = mediaCode(msg.contentType);
  if (code === undefined) throw new MmsError(`unsupported MMS body type ${msg.contentType}`);
  ct.byte(code | 0x80);
  if (msg.contentType === MULTIPART_RELATED && msg.start !== undefined) {
    ct.byte(0x89); // Type
    ct.text('application/smil');
    ct.byte(0x8a); // Start
    ct.text(`<${msg.start}>`);
  }
  w.valueLength(ct.bytes.length);
  w.raw(ct.bytes);
  // multipart body
  w.uintvar(msg.parts.length);
  for (const part of msg.parts) {
    const headers = new Writer();
    encodePartContentType(headers, part.contentType);
    headers.byte(0x8e); // Content-Location
    headers.text(part.name);
    if (part.contentId !== undefined) {
      headers.byte(0xc0); // Content-ID, quoted string
      headers.byte(0x22);
      const enc = new TextEncoder().encode(`<${part.contentId}>`);
      headers.raw(enc);
      headers.byte(0);
    }
    w.uintvar(headers.bytes.length);
    w.uintvar(part.bytes.length);
    w.raw(headers.bytes);
    w.raw(part.bytes);
  }
  return Uint8Array.from(w.bytes);
}

class Reader {
  pos = 0;
  readonly data: Uint8Array;
  constructor(data: Uint8Array) {
    this.data = data;
  }
  byte(): number {
    const b = this.data[this.pos];
    if (b === undefined) throw new MmsError('MMS file truncated');
    this.pos++;
    return b;
  }
  peek(): number {
    const b = this.data[this.pos];
    if (b === undefined) throw new MmsError('MMS file truncated');
    return b;
  }
  uintvar(): number {
    let n = 0;
    for (let i = 0; i < 5; i++) {
      const b = this.byte();
      n = n * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) return n;
    }
    throw new MmsError('bad uintvar');
  }
  text(): string {
    const start = this.pos;
    while (this.byte() !== 0) {
      /* scan to the terminator */
    }
    let bytes = this.data.subarray(start, this.pos - 1);
    if (bytes[0] === 0x7f || bytes[0] === 0x22) bytes = bytes.subarray(1);
    return new TextDecoder().decode(bytes);
  }
  bytesOf(n: number): Uint8Array {
    if (this.pos + n > this.data.length) throw new MmsError('MMS file truncated');
    const out = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  valueLength(): number {
    const b = this.byte();
    if (b < 31) return b;
    if (b === 31) return this.uintvar();
    throw new MmsError('bad value length');
  }
  /** skips one WSP header value (general encoding rules) */
  skipValue(): void {
    const b = this.peek();
    if (b <= 31) {
      const len = this.valueLength();
      this.pos += len;
    } else if (b < 128) this.text();
    else this.pos++;
  }
}

function readContentType(r: Reader): { type: string; params: Map<number, string> } {
  const params = new Map<number, string>();
  const b = r.peek();
  if (b >= 0x80) return { type: WELL_KNOWN_MEDIA[r.byte() & 0x7f] ?? 'application/octet-stream', params };
  if (b >= 32) return { type: r.text(), params };
  const len = r.valueLength();
  const end = r.pos + len;
  const first = r.peek();
  const type = first >= 0x80 ? (WELL_KNOWN_MEDIA[r.byte() & 0x7f] ?? 'application/octet-stream') : r.text();
  while (r.pos < end) {
    const name = r.byte() & 0x7f;
    if (r.peek() >= 0x80) params.set(name, String(r.byte() & 0x7f));
    else if (r.peek() < 32) {
      const l = r.valueLength();
      r.pos += l;
    } else params.set(name, r.text());
  }
  r.pos = end;
  return { type, params };
}

/** Decodes an MMS file written by encodeMms (and the common subset written by handsets). */
export function decodeMms(data: Uint8Array): MmsMessage {
  const r = new Reader(data);
  const msg: MmsMessage = { contentType: '', parts: [] };
  if (r.byte() !== MESSAGE_TYPE) throw new MmsError('not an MMS file (X-Mms-Message-Type missing)');
  r.byte();
  for (;;) {
    const field = r.byte();
    if (field === CONTENT_TYPE) {
      const ct = readContentType(r);
      msg.contentType = ct.type;
      const start = ct.params.get(0x0a);
      if (start !== undefined) msg.start = start.replace(/^<|>$/g, '');
      break;
    }
    if (field === TRANSACTION_ID) msg.transactionId = r.text();
    else if (field === SUBJECT) {
      if (r.peek() < 32) {
        const len = r.valueLength();
        const end = r.pos + len;
        r.byte(); // charset
        msg.subject = r.text();
        r.pos = end;
      } else msg.subject = r.text();
    } else r.skipValue();
  }
  const count = r.uintvar();
  for (let i = 0; i < count; i++) {
    const headersLen = r.uintvar();
    const dataLen = r.uintvar();
    const headersEnd = r.pos + headersLen;
    const ct = readContentType(r);
    const part: MmsPart = { contentType: ct.type, name: '', bytes: new Uint8Array() };
    while (r.pos < headersEnd) {
      const h = r.byte();
      if (h === 0x8e) part.name = r.text();
      else if (h === 0xc0) part.contentId = r.text().replace(/^<|>$/g, '');
      else r.skipValue();
    }
    r.pos = headersEnd;
    part.bytes = r.bytesOf(dataLen);
    msg.parts.push(part);
  }
  return msg;
}

const EXTENSION_TYPES: Record<string, string> = {
  mms: MMS_CONTENT_TYPE,
  zip: 'application/zip',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  png: 'image/png',
  wbmp: 'image/vnd.wap.wbmp',
  bmp: 'image/bmp',
  mid: 'audio/midi',
  midi: 'audio/midi',
  wav: 'audio/wav',
  amr: 'audio/amr',
  mp3: 'audio/mpeg',
  '3gp': 'video/3gpp',
  mp4: 'video/mp4',
  jad: 'text/vnd.sun.j2me.app-descriptor',
  jar: 'application/java-archive',
  txt: 'text/plain',
  smil: 'application/smil',
  smi: 'application/smil',
  rtttl: 'audio/x-rtttl',
  rtx: 'audio/x-rtttl',
  vcf: 'text/x-vcard',
  vcs: 'text/x-vcalendar',
};

/**
 * The media types /content/<token> serves as they are (issue 17): WAP and MMS content. Anything else
 * a sender declared (text/html with a script) is served as application/octet-stream.
 */
export const SERVABLE_CONTENT_TYPES: ReadonlySet<string> = new Set(
  Object.values(EXTENSION_TYPES).filter((t) => t !== 'application/zip'),
);

/** Content type from a file name's extension (spec 2.4: ContentType, when absent, is derived from it). */
export function contentTypeForName(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  return EXTENSION_TYPES[ext] ?? 'application/octet-stream';
}

export interface ComposeOptions {
  subject?: string;
  /** spec 2.4 AddSMIL after resolving 0 against the handset profile: add a SMIL when the ZIP has none */
  addSmil: boolean;
  maxBytes?: number;
  maxEntries?: number;
}

const ZIP_MAX_BYTES = 1024 * 1024;
const ZIP_MAX_ENTRIES = 32;
/** Issue 17: the highest compression ratio accepted for a ZIP entry (real media compress far less). */
export const ZIP_MAX_RATIO = 100;

/** Text for an XML attribute value (a ZIP entry name in the generated SMIL). */
function xmlAttr(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}

/**
 * Inflates the entries named in `declared` (name → size from the central directory), never past
 * the declared size: an entry that says 10 bytes and inflates to 100 MB is stopped at byte 11.
 */
function inflateWithin(zip: Uint8Array, declared: Map<string, number>): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  let failure: MmsError | null = null;
  const unzipper = new Unzip();
  unzipper.register(UnzipInflate);
  unzipper.onfile = (file) => {
    const limit = declared.get(file.name);
    if (limit === undefined) return;
    const chunks: Uint8Array[] = [];
    let got = 0;
    file.ondata = (err, chunk, final) => {
      if (failure) return;
      if (err) {
        failure = new MmsError(`not a readable ZIP file: ${err.message}`);
        return;
      }
      got += chunk.length;
      if (got > limit) {
        failure = new MmsError(`ZIP entry ${file.name} is larger than the ${limit} bytes it declares`);
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) {
        const all = new Uint8Array(got);
        let at = 0;
        for (const c of chunks) {
          all.set(c, at);
          at += c.length;
        }
        out[file.name] = all;
      }
    };
    file.start();
  };
  unzipper.push(zip, true);
  if (failure) throw failure;
  return out;
}

function smilFor(parts: MmsPart[]): string {
  const images = parts.filter((p) => /^(image|video)\//.test(p.contentType));
  const texts = parts.filter((p) => p.contentType === 'text/plain');
  const audio = parts.filter((p) => p.contentType.startsWith('audio/'));
  const slides = Math.max(images.length, texts.length, audio.length, 1);
  const pars: string[] = [];
  for (let i = 0; i < slides; i++) {
    const items: string[] = [];
    const img = images[i];
    const txt = texts[i];
    const snd = audio[i];
    // Issue 17: the names come from the sender's ZIP: escaped.
    if (img) items.push(`<img src="${xmlAttr(img.name)}" region="Image"/>`);
    if (txt) items.push(`<text src="${xmlAttr(txt.name)}" region="Text"/>`);
    if (snd) items.push(`<audio src="${xmlAttr(snd.name)}"/>`);
    pars.push(`<par dur="5000ms">${items.join('')}</par>`);
  }
  return (
    '<smil><head><layout><root-layout width="176" height="208"/>' +
    '<region id="Image" top="0" left="0" width="176" height="144" fit="meet"/>' +
    '<region id="Text" top="144" left="0" width="176" height="64"/>' +
    `</layout></head><body>${pars.join('')}</body></smil>`
  );
}

/**
 * Composes an MMS from a ZIP of components (text, images, audio, SMIL). Refuses nested paths, too
 * many entries and more than maxBytes of uncompressed content (checked before inflating: no zip bomb).
 */
export function composeMmsFromZip(
  zip: Uint8Array,
  opts: ComposeOptions,
): { mms: Uint8Array; message: MmsMessage } {
  const maxBytes = opts.maxBytes ?? ZIP_MAX_BYTES;
  const maxEntries = opts.maxEntries ?? ZIP_MAX_ENTRIES;
  let declared = 0;
  let entries = 0;
  let files: Record<string, Uint8Array>;
  const sizes = new Map<string, number>();
  try {
    // The central directory first (nothing inflated): counts, declared sizes, ratios.
    unzipSync(zip, {
      filter: (f) => {
        entries++;
        declared += f.originalSize;
        if (entries > maxEntries) throw new MmsError(`ZIP has more than ${maxEntries} entries`);
        if (declared > maxBytes) throw new MmsError(`ZIP content is larger than ${maxBytes} bytes`);
        if (f.originalSize > 1024 && f.originalSize > Math.max(1, f.size) * ZIP_MAX_RATIO)
          throw new MmsError(`ZIP entry ${f.name} is compressed more than ${ZIP_MAX_RATIO}:1`);
        if (!f.name.endsWith('/')) sizes.set(f.name, f.originalSize);
        return false;
      },
    });
    files = inflateWithin(zip, sizes);
  } catch (e) {
    if (e instanceof MmsError) throw e;
    throw new MmsError(`not a readable ZIP file: ${(e as Error).message}`);
  }
  const parts: MmsPart[] = [];
  let smil: MmsPart | undefined;
  let total = 0;
  for (const [path, bytes] of Object.entries(files)) {
    total += bytes.length;
    if (total > maxBytes) throw new MmsError(`ZIP content is larger than ${maxBytes} bytes`);
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (name === '' || name.startsWith('.') || path.includes('..')) continue;
    const contentType = contentTypeForName(name);
    const part: MmsPart = { contentType, name, contentId: name, bytes };
    if (contentType === 'application/smil') smil = part;
    else parts.push(part);
  }
  if (parts.length === 0) throw new MmsError('ZIP has no MMS components (text, image, audio or video)');
  if (!smil && opts.addSmil) {
    smil = {
      contentType: 'application/smil',
      name: 'presentation.smil',
      contentId: 'smil',
      bytes: new TextEncoder().encode(smilFor(parts)),
    };
  }
  const message: MmsMessage = smil
    ? {
        contentType: MULTIPART_RELATED,
        start: smil.contentId ?? smil.name,
        parts: [smil, ...parts],
        ...(opts.subject ? { subject: opts.subject } : {}),
      }
    : { contentType: MULTIPART_MIXED, parts, ...(opts.subject ? { subject: opts.subject } : {}) };
  return { mms: encodeMms(message), message };
}
