// electron-builder.yml as electron-builder 26 reads it: valid against its own JSON schema
// (node_modules/app-builder-lib/scheme.json, checked with ajv), the targets per OS, the NSIS
// per-machine choice, asar and the Electron fuses, the files that go into the package (the build
// output only: no tests, benchmarks, source maps or key files), and the icons it points to (real
// PNG, ICO and ICNS files of the right sizes). `npm run dist` itself is never run in tests.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, matchesGlob, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIcns, buildIco, ICNS_TYPES, ICO_SIZES, PNG_SIZES } from '../../../scripts/make-icons.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
type AjvInstance = {
  validate(schema: object, data: unknown): boolean;
  errors?: Array<{ instancePath: string; message?: string }> | null;
};
const Ajv = require('ajv') as new (opts: object) => AjvInstance;

interface BuilderConfig {
  appId: string;
  productName: string;
  asar: boolean;
  files: string[];
  directories: { buildResources: string; output: string };
  electronFuses: Record<string, boolean>;
  linux: { target: string[]; icon: string };
  deb: { description: string };
  win: { target: string[]; icon: string };
  nsis: { oneClick: boolean; perMachine: boolean; allowElevation: boolean };
  mac: { target: string[]; icon: string };
}

const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

/** electron-builder's rule: a file is packaged when a positive pattern matches and no "!" pattern does. */
function packaged(path: string): boolean {
  const positive = config.files.filter((p) => !p.startsWith('!'));
  const negative = config.files.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return positive.some((p) => matchesGlob(path, p)) && !negative.some((p) => matchesGlob(path, p));
}

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function readIco(buf: Buffer): Array<{ size: number; png: Buffer }> {
  expect(buf.readUInt16LE(0)).toBe(0);
  expect(buf.readUInt16LE(2)).toBe(1);
  const n = buf.readUInt16LE(4);
  return Array.from({ length: n }, (_, i) => {
    const e = 6 + 16 * i;
    const w = buf.readUInt8(e) || 256;
    const length = buf.readUInt32LE(e + 8);
    const offset = buf.readUInt32LE(e + 12);
    expect(buf.readUInt16LE(e + 6)).toBe(32);
    return { size: w, png: buf.subarray(offset, offset + length) };
  });
}

function readIcns(buf: Buffer): Array<{ type: string; png: Buffer }> {
  expect(buf.subarray(0, 4).toString('latin1')).toBe('icns');
  expect(buf.readUInt32BE(4)).toBe(buf.length);
  const out: Array<{ type: string; png: Buffer }> = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at + 4);
    expect(len).toBeGreaterThan(8);
    out.push({ type: buf.subarray(at, at + 4).toString('latin1'), png: buf.subarray(at + 8, at + len) });
    at += len;
  }
  return out;
}

describe('electron-builder.yml', () => {
  it("is valid against electron-builder's own schema", () => {
    const schema = JSON.parse(
      readFileSync(join(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8'),
    ) as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    const ok = ajv.validate(schema, config);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors)).toEqual([]);
    expect(ok).toBe(true);
    // The validator does catch a misspelt option (the schema forbids unknown properties).
    expect(ajv.validate(schema, { ...config, nsis: { ...config.nsis, perMachineInstall: true } })).toBe(
      false,
    );
  });

  it('names the app and builds AppImage + deb, NSIS, dmg with asar', () => {
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Messenger');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.asar).toBe(true);
    expect(config.deb.description).toContain('/etc/messenger/policy.json');
  });

  it('offers admins a per-machine install (assisted NSIS installer with elevation)', () => {
    // oneClick false + perMachine false = the installer asks "only for me" / "for all users".
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false, allowElevation: true });
  });

  it('sets the Electron fuses', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      // issue 17: NODE_OPTIONS ignored, the asar checked against its embedded hash, file:// unprivileged
      enableNodeOptionsEnvironmentVariable: false,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('packages the build output and package.json only', () => {
    for (const f of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json'])
      expect(packaged(f), f).toBe(true);
    for (const f of [
      'out/main/index.js.map',
      'out/renderer/assets/index-abc.js.map',
      'test/unit/packaging/electron-builder-config.test.ts',
      'bench/run.ts',
      'main/services/app.ts',
      'gateway/server.ts',
      'out/test-key.pem',
      'out/.env',
      '.env',
      'test-results/update-done-light.png',
    ])
      expect(packaged(f), f).toBe(false);
  });

  it('points at real icons of the sizes each platform needs', () => {
    const linuxDir = join(ROOT, config.linux.icon);
    const names = readdirSync(linuxDir).sort();
    expect(names).toEqual(PNG_SIZES.map((s) => `${s}x${s}.png`).sort());
    for (const s of PNG_SIZES)
      expect(pngSize(readFileSync(join(linuxDir, `${s}x${s}.png`)))).toEqual({ width: s, height: s });

    const ico = readIco(readFileSync(join(ROOT, config.win.icon)));
    expect(ico.map((i) => i.size)).toEqual([...ICO_SIZES]);
    for (const i of ico) expect(pngSize(i.png)).toEqual({ width: i.size, height: i.size });
    expect(Math.max(...ico.map((i) => i.size))).toBe(256);

    const icns = readIcns(readFileSync(join(ROOT, config.mac.icon)));
    expect(icns.map((e) => e.type)).toEqual(ICNS_TYPES.map(([t]) => t));
    for (const e of icns) {
      const px = ICNS_TYPES.find(([t]) => t === e.type)![1];
      expect(pngSize(e.png)).toEqual({ width: px, height: px });
    }
    expect(existsSync(join(ROOT, 'assets/icon.svg'))).toBe(true);
  });
});

describe('icon containers', () => {
  const fakePng = (n: number) => Buffer.concat([Buffer.from('PNGDATA'), Buffer.alloc(n)]);

  it('ICO: a directory entry per image pointing at its PNG (256 written as 0)', () => {
    const buf = buildIco([
      { size: 16, png: fakePng(3) },
      { size: 256, png: fakePng(5) },
    ]);
    expect(buf.readUInt16LE(4)).toBe(2);
    expect(buf.readUInt8(6 + 16)).toBe(0);
    const second = buf.readUInt32LE(6 + 16 + 12);
    expect(second).toBe(6 + 32 + 10);
    expect(buf.subarray(second, second + 7).toString()).toBe('PNGDATA');
    expect(() => buildIco([{ size: 512, png: fakePng(1) }])).toThrow(/at most 256/);
  });

  it('ICNS: big-endian lengths including the 8-byte headers', () => {
    const buf = buildIcns([{ type: 'ic07', png: fakePng(1) }]);
    expect(buf.length).toBe(8 + 8 + 8);
    expect(buf.readUInt32BE(4)).toBe(24);
    expect(buf.subarray(8, 12).toString()).toBe('ic07');
    expect(buf.readUInt32BE(12)).toBe(16);
  });
});

describe('npm run dist', () => {
  it('builds, then packages for the current OS without publishing; README says it needs the network', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.dist).toBe('electron-vite build && electron-builder --publish never');
    expect(pkg.scripts.icons).toBe('node scripts/make-icons.ts');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/`npm run dist`[^\n]*network access[^\n]*Electron/);
  });
});
