// Issue 23, item 2: images whose headers lie. A PNG with a 16×16 IHDR followed by a 16000×16000 one
// was accepted and decoded at the second size (13–16 s, +1.4 GB); a 35-byte GIF whose one frame is
// 65535×65535 inside a 16×16 screen kept the image worker busy for minutes while a normal image
// waited behind it. Now every size the file states is checked before decoding, an adaption has a
// time limit, and the next image is adapted at once whatever came before.
import { crc32, deflateSync } from 'node:zlib';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT } from '../../../protocol/reports.ts';
import { bytesToHex } from '../../../protocol/smart/bytes.ts';
import { handsetProfile } from '../../../gateway/library/adapt.ts';
import { adaptInWorker } from '../../../gateway/library/adapt-pool.ts';
import { checkImageHeader, ImageError } from '../../../gateway/library/image-header.ts';
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

function ihdr(size: number): Buffer {
  const h = Buffer.alloc(13);
  h.writeUInt32BE(size, 0);
  h.writeUInt32BE(size, 4);
  h[8] = 1; // bit depth
  h[9] = 0; // greyscale
  return chunk('IHDR', h);
}

/** The PNG: a 16×16 IHDR, then a 16000×16000 one and the pixels for the second. */
function lyingPng(): Buffer {
  const size = 16000;
  const raw = Buffer.alloc((Math.ceil(size / 8) + 1) * size);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    ihdr(16),
    ihdr(size),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The 35-byte GIF: a 16×16 screen and one 65535×65535 frame. */
function lyingGif(): Uint8Array {
  return Uint8Array.from([
    ...Buffer.from('GIF89a', 'latin1'),
    16,
    0,
    16,
    0, // the logical screen: 16×16
    0x00,
    0,
    0, // no global colour table
    0x2c,
    0,
    0,
    0,
    0,
    0xff,
    0xff,
    0xff,
    0xff,
    0x00, // a frame of 65535×65535, no local table
    2, // LZW minimum code size
    8,
    0x4c,
    0x01,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0, // one sub-block, then the terminator
    0x3b,
  ]);
}

async function normalPng(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(await new Jimp({ width, height, color: 0x3366ccff }).getBuffer('image/png'));
}

describe('image structure checks', () => {
  it('refuses a PNG with a second IHDR and a GIF with a frame larger than the limits', () => {
    const png = lyingPng();
    expect(png.length).toBeLessThan(64 * 1024); // small, and it says 16×16 first
    expect(() => checkImageHeader(png, 'image/png')).toThrow(/more than one IHDR/);
    const gif = lyingGif();
    expect(gif.length).toBe(35);
    expect(() => checkImageHeader(gif, 'image/gif')).toThrow(/frame 1 of the image is 65535×65535/);
  });

  it('refuses an adaption past its time limit, and adapts the next image at once', async () => {
    const big = await normalPng(2000, 2000);
    await expect(
      adaptInWorker(big, 'image/png', handsetProfile('Nokia', '6610'), { timeLimitMs: 1 }),
    ).rejects.toThrow(ImageError);
    const t = performance.now();
    const out = await adaptInWorker(await normalPng(300, 300), 'image/png', handsetProfile('Nokia', '6610'));
    expect(out.adapted).toBe(true);
    expect(out.width).toBeLessThanOrEqual(128);
    expect(performance.now() - t).toBeLessThan(10_000);
  });
});

describe('sendmms with images that lie', { timeout: 60_000 }, () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ sandbox: true, credit: '50.00' });
  });
  afterAll(async () => {
    await gw.close();
  });

  const send = async (name: string, bytes: Uint8Array) => {
    const t = performance.now();
    const res = await postForm(gw.url, '/webservices/http/sendmms', {
      Username: gw.username,
      PIN: gw.pin,
      ResponseFormat: '3',
      SendTo: '447700900611',
      PhoneMake: 'Nokia',
      PhoneModel: '6610',
      WAPPushFileName1: name,
      WAPPushFileData1: bytesToHex(bytes),
    });
    const p = new URLSearchParams(res.body);
    return { report: p.get('Report'), text: p.get('Text') ?? '', ms: performance.now() - t };
  };
  const credit = () =>
    (gw.ctx.db.prepare('SELECT credit FROM accounts WHERE id = ?').get(gw.account.id) as { credit: number })
      .credit;

  it('refuses the lying PNG and GIF with the content report, charges nothing, then adapts a normal image promptly', async () => {
    const before = credit();
    const png = await send('lie.png', lyingPng());
    expect(png.report).toBe(REPORT.invalidContent);
    expect(png.text).toMatch(/more than one IHDR/);
    const gif = await send('lie.gif', lyingGif());
    expect(gif.report).toBe(REPORT.invalidContent);
    expect(gif.text).toMatch(/65535×65535/);
    expect(credit()).toBe(before);
    const normal = await send('fine.png', await normalPng(400, 300));
    expect(normal.report).toBe(REPORT.accepted);
    // generous: the property is "not behind a minute of someone else's image"
    expect(png.ms + gif.ms + normal.ms).toBeLessThan(15_000);
  });
});
