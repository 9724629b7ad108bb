// Issue 17, item 12: a ZIP entry that lies about its size is inflated only up to what it declares,
// an entry compressed beyond a sane ratio is refused before inflating, and the SMIL made from
// entry names is well-formed XML whatever the names hold.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { composeMmsFromZip, ZIP_MAX_RATIO } from '../../../gateway/library/mms.ts';

function noise(n: number): Uint8Array {
  const b = new Uint8Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

/** Sets the uncompressed size that the local and central headers of the only entry declare. */
function lie(zip: Uint8Array, size: number): Uint8Array {
  const out = Uint8Array.from(zip);
  const view = new DataView(out.buffer);
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50) view.setUint32(i + 22, size, true);
    if (sig === 0x02014b50) view.setUint32(i + 24, size, true);
  }
  return out;
}

describe('MMS from a ZIP', () => {
  it('stops an entry at the size it declares', () => {
    const zip = lie(zipSync({ 'photo.jpg': noise(64 * 1024) }), 1000);
    expect(() => composeMmsFromZip(zip, { addSmil: false })).toThrow(
      /larger than the 1000 bytes it declares/,
    );
  });

  it('refuses an entry compressed beyond the ratio cap', () => {
    const zip = zipSync({ 'a.txt': new Uint8Array(600 * 1024) });
    expect(() => composeMmsFromZip(zip, { addSmil: false })).toThrow(new RegExp(`${ZIP_MAX_RATIO}:1`));
  });

  it('keeps an honest ZIP', () => {
    const { message } = composeMmsFromZip(
      zipSync({ 'photo.jpg': noise(2000), 'hi.txt': new TextEncoder().encode('hi') }),
      { addSmil: true },
    );
    expect(message.parts.map((p) => p.name).sort()).toEqual(['hi.txt', 'photo.jpg', 'presentation.smil']);
  });

  it('escapes entry names in the generated SMIL', () => {
    const name = `Tom & "Jerry" <1>'.jpg`;
    const { message } = composeMmsFromZip(zipSync({ [name]: noise(100) }), { addSmil: true });
    const smil = new TextDecoder().decode(message.parts.find((p) => p.name === 'presentation.smil')?.bytes);
    expect(smil).toContain('Tom &amp; &quot;Jerry&quot; &lt;1&gt;&apos;.jpg');
    // Well-formed for a parser no one here wrote.
    const dir = mkdtempSync(join(tmpdir(), 'smil-'));
    try {
      writeFileSync(join(dir, 'p.smil'), smil);
      execFileSync('xmllint', ['--noout', join(dir, 'p.smil')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
