// `npm run icons`: renders assets/icon.svg into the sizes electron-builder needs and writes
// assets/icons/<n>x<n>.png (Linux), assets/icon.ico (Windows, 16–256) and assets/icon.icns (macOS,
// 16–1024). The PNGs are rendered by Chromium (playwright-core driving /usr/bin/chromium, or
// CHROMIUM=path). The ICO and ICNS containers are written here: both formats allow PNG payloads
// (ICO since Windows Vista, each entry's data a whole PNG file; ICNS types icp4–icp6 and
// ic07–ic14 hold PNG data), so they simply embed the rendered PNGs. The outputs are committed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');
const ASSETS = join(ROOT, 'assets');
export const PNG_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024] as const;
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
/** ICNS element types with PNG data, and the pixel size of each. */
export const ICNS_TYPES: ReadonlyArray<readonly [string, number]> = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024], // 512@2x
  ['ic11', 32], // 16@2x
  ['ic12', 64], // 32@2x
  ['ic13', 256], // 128@2x
  ['ic14', 512], // 256@2x
];

/** ICO: ICONDIR (6 bytes), one ICONDIRENTRY (16 bytes) per image, then each PNG file as is. */
export function buildIco(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type 1 = icon
  header.writeUInt16LE(images.length, 4);
  const entries: Buffer[] = [];
  let offset = 6 + 16 * images.length;
  for (const { size, png } of images) {
    if (size > 256) throw new Error(`an ICO image is at most 256 px, not ${size}`);
    const e = Buffer.alloc(16);
    e.writeUInt8(size === 256 ? 0 : size, 0); // width, 0 means 256
    e.writeUInt8(size === 256 ? 0 : size, 1); // height
    e.writeUInt8(0, 2); // no palette
    e.writeUInt8(0, 3); // reserved
    e.writeUInt16LE(1, 4); // colour planes
    e.writeUInt16LE(32, 6); // bits per pixel
    e.writeUInt32LE(png.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(e);
  }
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

/** ICNS: 'icns' + total length (big-endian), then per element its type, length (with the 8-byte header) and data. */
export function buildIcns(elements: ReadonlyArray<{ type: string; png: Buffer }>): Buffer {
  const parts = elements.map(({ type, png }) => {
    if (!/^[\x20-\x7e]{4}$/.test(type)) throw new Error(`an ICNS type is 4 ASCII characters, not ${type}`);
    const h = Buffer.alloc(8);
    h.write(type, 0, 'latin1');
    h.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([h, png]);
  });
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'latin1');
  header.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([header, body]);
}

async function render(svg: string, sizes: readonly number[]): Promise<Map<number, Buffer>> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const out = new Map<number, Buffer>();
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const size of sizes) {
      await page.setViewportSize({ width: size, height: size });
      const sized = svg.replace(/width="\d+" height="\d+"/, `width="${size}" height="${size}"`);
      await page.setContent(
        `<!doctype html><html><head><style>html,body{margin:0;padding:0;background:transparent}svg{display:block}</style></head><body>${sized}</body></html>`,
      );
      out.set(size, await page.screenshot({ omitBackground: true, type: 'png' }));
    }
  } finally {
    await browser.close();
  }
  return out;
}

export async function makeIcons(): Promise<string[]> {
  const svg = readFileSync(join(ASSETS, 'icon.svg'), 'utf8');
  if (!/width="\d+" height="\d+"/.test(svg))
    throw new Error('assets/icon.svg needs width and height attributes');
  const sizes = [...new Set<number>([...PNG_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, s]) => s)])];
  const png = await render(svg, sizes);
  const get = (s: number): Buffer => {
    const b = png.get(s);
    if (!b) throw new Error(`no ${s} px rendering`);
    return b;
  };
  const written: string[] = [];
  mkdirSync(join(ASSETS, 'icons'), { recursive: true });
  for (const s of PNG_SIZES) {
    const file = join(ASSETS, 'icons', `${s}x${s}.png`);
    writeFileSync(file, get(s));
    written.push(file);
  }
  writeFileSync(join(ASSETS, 'icon.png'), get(512));
  writeFileSync(join(ASSETS, 'icon.ico'), buildIco(ICO_SIZES.map((s) => ({ size: s, png: get(s) }))));
  writeFileSync(join(ASSETS, 'icon.icns'), buildIcns(ICNS_TYPES.map(([type, s]) => ({ type, png: get(s) }))));
  written.push(join(ASSETS, 'icon.png'), join(ASSETS, 'icon.ico'), join(ASSETS, 'icon.icns'));
  return written;
}

if (import.meta.main) {
  makeIcons().then(
    (files) => process.stdout.write(`${files.map((f) => f.slice(ROOT.length + 1)).join('\n')}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
