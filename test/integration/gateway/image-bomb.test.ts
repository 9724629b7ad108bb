// Issue 17, items 3 and 15: an image is sized from its header before any decoding, and one too
// large for any handset (a 31 KB PNG that says 16000×16000 pixels) is refused with the content
// report at once; a file named .png/.jpg/.gif/.wbmp that is not that image is the sender's bad
// content (report 13), not "Internal error" (98); decoding runs in a worker thread.
import { crc32, deflateSync } from 'node:zlib';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT } from '../../../protocol/reports.ts';
import { bytesToHex } from '../../../protocol/smart/bytes.ts';
import { handsetProfile } from '../../../gateway/library/adapt.ts';
import { adaptInWorker } from '../../../gateway/library/adapt-pool.ts';
import {
  checkImageHeader,
  ImageError,
  imageHeaderSize,
  MAX_IMAGE_SIDE,
} from '../../../gateway/library/image-header.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid PNG of `size`×`size` 1-bit pixels, all black: a few KB that decode to gigabytes. */
function bombPng(size: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const row = Math.ceil(size / 8) + 1;
  const raw = Buffer.alloc(row * size); // filter 0 and zero pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('image headers', () => {
  it('reads the size of PNG, GIF, JPEG and WBMP from the header', async () => {
    for (const type of ['image/png', 'image/gif', 'image/jpeg'] as const) {
      const bytes = new Uint8Array(
        await new Jimp({ width: 33, height: 17, color: 0x336699ff }).getBuffer(type),
      );
      expect(imageHeaderSize(bytes, type)).toEqual({ width: 33, height: 17 });
    }
    expect(imageHeaderSize(Uint8Array.from([0, 0, 0x81, 0x00, 40]), 'image/vnd.wap.wbmp')).toEqual({
      width: 128,
      height: 40,
    });
  });

  it('refuses a bomb by its header and data that is not the named format', () => {
    const bomb = bombPng(16000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(() => checkImageHeader(bomb, 'image/png')).toThrow(/16000×16000/);
    expect(() => checkImageHeader(bombPng(MAX_IMAGE_SIDE + 1), 'image/png')).toThrow(ImageError);
    expect(() => checkImageHeader(new TextEncoder().encode('<html>'), 'image/jpeg')).toThrow(/not a JPEG/);
    expect(() => checkImageHeader(Uint8Array.from([0, 0]), 'image/gif')).toThrow(ImageError);
  });

  it('adapts in a worker thread: the event loop keeps turning', async () => {
    const png = new Uint8Array(
      await new Jimp({ width: 1500, height: 1500, color: 0xff0000ff }).getBuffer('image/png'),
    );
    let turns = 0;
    const tick = setInterval(() => turns++, 1);
    const out = await adaptInWorker(png, 'image/png', handsetProfile('Nokia', '6610'));
    clearInterval(tick);
    expect(out.adapted).toBe(true);
    expect(out.width).toBeLessThanOrEqual(128);
    expect(turns).toBeGreaterThan(0);
  });
});

describe('sendmms with a WAP push image', { timeout: 30_000 }, () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ sandbox: true, credit: '50.00' });
  });
  afterAll(async () => {
    await gw.close();
  });

  const send = async (name: string, bytes: Uint8Array) => {
    const res = await postForm(gw.url, '/webservices/http/sendmms', {
      Username: gw.username,
      PIN: gw.pin,
      ResponseFormat: '3',
      SendTo: '447700900611',
      WAPPushFileName1: name,
      WAPPushFileData1: bytesToHex(bytes),
    });
    const p = new URLSearchParams(res.body);
    return { report: p.get('Report'), text: p.get('Text') ?? '' };
  };
  const libraryCount = () =>
    (gw.ctx.db.prepare('SELECT count(*) AS n FROM library_files').get() as { n: number }).n;

  it('refuses a decompression bomb with the content report, without decoding it', async () => {
    const before = libraryCount();
    const r = await send('bomb.png', bombPng(16000));
    expect(r.report).toBe(REPORT.invalidContent);
    expect(r.text).toMatch(/16000×16000/);
    expect(libraryCount()).toBe(before);
  });

  it('answers a file that is not the image its name says with the content report, not 98', async () => {
    for (const name of ['fake.png', 'fake.jpg', 'fake.gif', 'fake.wbmp']) {
      const r = await send(name, new TextEncoder().encode('this is not an image at all'));
      expect(r.report, name).toBe(REPORT.invalidContent);
      expect(r.report).not.toBe(REPORT.serverError);
    }
    // A PNG header over damaged data: found only when decoding (in the worker), still report 13.
    const good = new Uint8Array(
      await new Jimp({ width: 40, height: 40, color: 0x00ff00ff }).getBuffer('image/png'),
    );
    const damaged = good.slice(0, 40);
    expect((await send('cut.png', damaged)).report).toBe(REPORT.invalidContent);
  });
});
