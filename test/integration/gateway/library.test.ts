// The content library, MMS composition from a ZIP and content adaption, on a real node:sqlite store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { zipSync } from 'fflate';
import { Jimp } from 'jimp';
import { openGatewayDb } from '../../../gateway/store/db.ts';
import {
  addLibraryFile,
  getLibraryFile,
  listLibrary,
  PUBLIC_SEED,
  seedPublicLibrary,
} from '../../../gateway/library/library.ts';
import { composeMmsFromZip, decodeMms, encodeMms, MmsError } from '../../../gateway/library/mms.ts';
import {
  adaptContent,
  decodeWbmp,
  encodeWbmp,
  handsetProfile,
  imageSize,
} from '../../../gateway/library/adapt.ts';
import { decodeOtaBitmap } from '../../../protocol/smart/ota-bitmap.ts';

const enc = (s: string) => new TextEncoder().encode(s);
let dir: string;
let db: DatabaseSync;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-lib-'));
  db = openGatewayDb(dir);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('library numbers', () => {
  it('seeds a public library once, each file in the range of its kind', () => {
    seedPublicLibrary(db);
    seedPublicLibrary(db);
    const files = listLibrary(db, null);
    expect(files.map((f) => f.number)).toEqual(PUBLIC_SEED.map((s) => s.number).sort((a, b) => a - b));
    const logo = getLibraryFile(db, '10000', { id: 1 }, ['operator-logo']);
    expect(logo.ok).toBe(true);
    if (logo.ok) expect(decodeOtaBitmap(logo.file.bytes)).toMatchObject({ width: 72, height: 14 });
    const picture = getLibraryFile(db, 20000, { id: 1 }, ['picture']);
    expect(picture.ok && decodeOtaBitmap(picture.file.bytes).height).toBe(28);
    expect(files.filter((f) => f.kind === 'ringtone').length).toBeGreaterThanOrEqual(3);
    expect(files.some((f) => f.kind === 'group-graphic')).toBe(true);
    const mms = getLibraryFile(db, 80000, { id: 1 }, ['mms']);
    expect(mms.ok && decodeMms(mms.file.bytes).parts.map((p) => p.contentType)).toEqual([
      'application/smil',
      'image/png',
      'text/plain',
    ]);
  });

  it('gives uploads the next number of their kind and keeps private files private', () => {
    seedPublicLibrary(db);
    const a = addLibraryFile(db, {
      kind: 'wap',
      ownerAccountId: 7,
      name: 'a.jar',
      contentType: 'application/java-archive',
      bytes: enc('jar'),
    });
    const b = addLibraryFile(db, {
      kind: 'mms',
      ownerAccountId: 8,
      name: 'b.mms',
      contentType: 'application/vnd.wap.mms-message',
      bytes: enc('x'),
    });
    const p = addLibraryFile(db, {
      kind: 'picture',
      ownerAccountId: 7,
      name: 'p.otb',
      contentType: 'image/x-ota-bitmap',
      bytes: enc('p'),
    });
    expect(a).toBeGreaterThanOrEqual(80000);
    expect(a).toBeLessThanOrEqual(89999);
    expect(b).toBe(a + 1);
    expect(p).toBeGreaterThanOrEqual(20000);
    expect(p).toBeLessThanOrEqual(29999);
    expect(getLibraryFile(db, a, { id: 7 }, ['wap']).ok).toBe(true);
    // another account's private number is refused like an unknown one
    const other = getLibraryFile(db, a, { id: 8 }, ['wap']);
    expect(other).toMatchObject({ ok: false, reason: 'not-found' });
    expect(getLibraryFile(db, 89999, { id: 8 }, ['wap'])).toMatchObject({ ok: false, reason: 'not-found' });
    // a child sees its parent's files
    expect(getLibraryFile(db, a, { id: 9, parentId: 7 }, ['wap']).ok).toBe(true);
    // wrong range and wrong format
    expect(getLibraryFile(db, 20000, { id: 7 }, ['operator-logo'])).toMatchObject({
      ok: false,
      reason: 'range',
    });
    expect(getLibraryFile(db, '8000x', { id: 7 }, ['mms'])).toMatchObject({ ok: false, reason: 'format' });
    expect(listLibrary(db, 7).map((f) => f.number)).toContain(a);
    expect(listLibrary(db, 8).map((f) => f.number)).not.toContain(a);
  });
});

describe('MMS files', () => {
  it('round-trips an m-send-req with UTF-8 subject and parts', () => {
    const bytes = encodeMms({
      subject: 'Grüße',
      contentType: 'application/vnd.wap.multipart.mixed',
      parts: [
        { contentType: 'text/plain', name: 'a.txt', contentId: 'a', bytes: enc('héllo') },
        { contentType: 'audio/amr', name: 'b.amr', bytes: new Uint8Array(300).fill(7) },
      ],
    });
    expect(bytes[0]).toBe(0x8c);
    const back = decodeMms(bytes);
    expect(back.subject).toBe('Grüße');
    expect(back.parts).toHaveLength(2);
    expect(new TextDecoder().decode(back.parts[0]!.bytes)).toBe('héllo');
    expect(back.parts[1]).toMatchObject({ contentType: 'audio/amr', name: 'b.amr' });
    expect(back.parts[1]!.bytes.length).toBe(300);
  });

  it('composes an MMS from a ZIP, adding a SMIL only when asked', () => {
    const zip = zipSync({ 'hello.txt': enc('Hello'), 'pic.wbmp': encodeWbmp(8, 8, new Uint8Array(256)) });
    const withSmil = composeMmsFromZip(zip, { addSmil: true, subject: 'Hi' });
    const decoded = decodeMms(withSmil.mms);
    expect(decoded.contentType).toBe('application/vnd.wap.multipart.related');
    expect(decoded.start).toBe('smil');
    const smil = new TextDecoder().decode(decoded.parts[0]!.bytes);
    expect(smil).toContain('src="pic.wbmp"');
    expect(smil).toContain('src="hello.txt"');
    const without = decodeMms(composeMmsFromZip(zip, { addSmil: false }).mms);
    expect(without.contentType).toBe('application/vnd.wap.multipart.mixed');
    expect(without.parts.map((p) => p.name).sort()).toEqual(['hello.txt', 'pic.wbmp']);
    // a SMIL in the ZIP is kept as the start part
    const own = decodeMms(
      composeMmsFromZip(zipSync({ 'a.smil': enc('<smil/>'), 'a.txt': enc('x') }), { addSmil: false }).mms,
    );
    expect(own.parts[0]).toMatchObject({ contentType: 'application/smil', name: 'a.smil' });
  });

  it('refuses a ZIP bomb, an empty ZIP and a non-ZIP', () => {
    const bomb = zipSync({ 'big.txt': new Uint8Array(5 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(() => composeMmsFromZip(bomb, { addSmil: true })).toThrow(/larger than/);
    expect(() => composeMmsFromZip(zipSync({ 'x.smil': enc('<smil/>') }), { addSmil: true })).toThrow(
      MmsError,
    );
    expect(() => composeMmsFromZip(enc('not a zip'), { addSmil: true })).toThrow(MmsError);
  });
});

describe('content adaption', () => {
  async function png(width: number, height: number): Promise<Uint8Array> {
    return new Uint8Array(await new Jimp({ width, height, color: 0x336699ff }).getBuffer('image/png'));
  }

  it('scales a large image down to the handset screen, keeping its aspect', async () => {
    const src = await png(400, 200);
    const out = await adaptContent(src, 'image/png', handsetProfile('Nokia', '7650'));
    expect(out.adapted).toBe(true);
    expect(out.contentType).toBe('image/png');
    expect(await imageSize(out.bytes, 'image/png')).toEqual({ width: 176, height: 88 });
  });

  it('converts to WBMP for a monochrome handset', async () => {
    const out = await adaptContent(await png(200, 100), 'image/png', handsetProfile('Nokia', '3410'));
    expect(out.contentType).toBe('image/vnd.wap.wbmp');
    const wbmp = decodeWbmp(out.bytes);
    expect(wbmp.width).toBeLessThanOrEqual(96);
    expect(wbmp.height).toBeLessThanOrEqual(65);
    expect(wbmp.width).toBe(96);
  });

  it('leaves content alone when it fits, when repurposing is disabled, and for non-images', async () => {
    const small = await png(50, 50);
    expect((await adaptContent(small, 'image/png', handsetProfile('Nokia'))).bytes).toBe(small);
    const big = await png(600, 600);
    const off = await adaptContent(big, 'image/png', handsetProfile('Ericsson'), {
      disableRepurposing: true,
    });
    expect(off).toMatchObject({ adapted: false, contentType: 'image/png' });
    expect(off.bytes).toBe(big);
    const jar = enc('PK jar');
    expect((await adaptContent(jar, 'application/java-archive', handsetProfile('Nokia'))).bytes).toBe(jar);
  });

  it('adapts JPEG, GIF and WBMP too, keeping a format the handset shows', async () => {
    const base = new Jimp({ width: 400, height: 300, color: 0xaa3300ff });
    const profile = handsetProfile('Siemens'); // 132x176
    for (const type of ['image/jpeg', 'image/gif'] as const) {
      const src = new Uint8Array(await base.getBuffer(type));
      const out = await adaptContent(src, type, profile);
      expect(out.contentType).toBe(type);
      expect(await imageSize(out.bytes, type)).toEqual({ width: 132, height: 99 });
    }
    const wbmp = encodeWbmp(300, 100, new Uint8Array(300 * 100 * 4).fill(255));
    const out = await adaptContent(wbmp, 'image/vnd.wap.wbmp', profile);
    expect(out.contentType).toBe('image/vnd.wap.wbmp');
    expect(decodeWbmp(out.bytes)).toMatchObject({ width: 132, height: 44 });
  });

  it('knows profiles per make and falls back for unknown ones', () => {
    expect(handsetProfile('Ericsson').width).toBe(101);
    expect(handsetProfile('EMS').formats).toEqual(['image/vnd.wap.wbmp']);
    expect(handsetProfile('Unknown', 'X')).toMatchObject({ width: 176, height: 144 });
    expect(handsetProfile('nokia', '3410').smil).toBe(false);
  });
});
