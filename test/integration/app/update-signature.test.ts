// Issue 17: signed updates against a real local HTTPS server. The release is signed by
// scripts/release-sign.ts (the script an admin runs, in a child process, with its key outside the
// repository); the download keeps a file only when "<url>.sig" verifies against a configured key:
// good signature kept, bad or missing signature deleted with the reason, an oversize body refused
// while streaming (with and without Content-Length), and the Zone.Identifier stream written when
// asked (as on Windows). Issue 23: signed by default (no key: refused; only updates.allowUnsigned
// keeps a file without a .sig), and the signature binds the version and the file name, so a signed
// 2.0.0 offered as 3.0.0, or under another name, is refused.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DownloadError, downloadFile } from '../../../main/services/update-download.ts';
import {
  BUILT_IN_UPDATE_KEYS,
  parsePublicKey,
  rawPublicKey,
  signedStatement,
} from '../../../main/services/update-signature.ts';
import { checkPolicy } from '../../../main/services/deploy-policy.ts';
import { makeTestCert, payload, startHttpsServer } from '../../support/https-server.ts';
import type { TestCert, TestHttpsServer } from '../../support/https-server.ts';
import { createHash } from 'node:crypto';

const BODY = payload(256 * 1024);

describe('signed update download over HTTPS', { timeout: 30_000 }, () => {
  let tmp: string;
  let cert: TestCert;
  let server: TestHttpsServer;
  let dir: string;
  let n = 0;
  let publicKey: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'messenger-signed-'));
    cert = makeTestCert(tmp);
    // The publisher: a key made by the release script outside the repository, the installer
    // signed by it.
    const keys = join(tmp, 'keys');
    const made = execFileSync(process.execPath, ['scripts/release-sign.ts', '--new-key', keys], {
      encoding: 'utf8',
    });
    publicKey = /public key: (\S+)/.exec(made)![1]!;
    const installer = join(tmp, 'Messenger-2.0.0.exe');
    writeFileSync(installer, BODY);
    execFileSync(process.execPath, ['scripts/release-sign.ts', installer, '--version', '2.0.0'], {
      env: { ...process.env, MESSENGER_UPDATE_KEY: join(keys, 'messenger-update.key') },
    });
    const good = readFileSync(`${installer}.sig`);
    // The same file and statement signed by someone else's key.
    const other = generateKeyPairSync('ed25519').privateKey;
    const digest = createHash('sha512').update(BODY).digest();
    const byOther = sign(
      null,
      signedStatement({ sha512: digest, version: '2.0.0', name: 'Messenger-2.0.0.exe' }),
      other,
    );
    const tampered = Buffer.from(BODY);
    tampered[1000] = (tampered[1000] ?? 0) ^ 1;
    // path → [body, signature or none]
    const files = new Map<string, [Buffer, Buffer | null]>([
      ['/good/Messenger-2.0.0.exe', [BODY, good]],
      ['/bad/Messenger-2.0.0.exe', [BODY, Buffer.from(byOther.toString('base64'))]],
      ['/missing/Messenger-2.0.0.exe', [BODY, null]],
      ['/tampered/Messenger-2.0.0.exe', [tampered, good]],
      // the signed 2.0.0 under another name
      ['/renamed/Messenger-2.0.1.exe', [BODY, good]],
    ]);
    server = await startHttpsServer(cert, (req, res) => {
      const path = req.url ?? '';
      const file = files.get(path);
      const sig = path.endsWith('.sig') ? files.get(path.slice(0, -4))?.[1] : undefined;
      if (sig) res.writeHead(200, { 'content-length': String(sig.length) }).end(sig);
      else if (file) res.writeHead(200, { 'content-length': String(file[0].length) }).end(file[0]);
      else if (path === '/big-chunked.exe') {
        // No Content-Length: only counting while streaming can stop it.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        let sent = 0;
        const more = (): void => {
          while (sent < 64 * 1024 * 1024 && !res.destroyed) {
            sent += BODY.length;
            if (!res.write(BODY)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      } else res.writeHead(404).end('no');
    });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  beforeEach(() => {
    dir = join(tmp, `downloads-${++n}`);
    mkdirSync(dir);
  });

  const run = (path: string, extra: Partial<Parameters<typeof downloadFile>[0]> = {}) =>
    downloadFile({
      url: `${server.origin}${path}`,
      dir,
      allowedHosts: ['127.0.0.1'],
      fallbackName: 'Messenger',
      ca: cert.cert,
      publicKeys: [parsePublicKey(publicKey)],
      version: '2.0.0',
      markOfTheWeb: false,
      ...extra,
    });

  const failure = async (p: Promise<unknown>): Promise<DownloadError> => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DownloadError);
    return err as DownloadError;
  };

  it('keeps a file whose signature verifies', async () => {
    const r = await run('/good/Messenger-2.0.0.exe');
    expect(r.verified).toBe(true);
    expect(readFileSync(r.path).equals(BODY)).toBe(true);
    expect(readdirSync(dir)).toEqual(['Messenger-2.0.0.exe']);
  });

  it('deletes a file signed by another key, and says why', async () => {
    const e = await failure(run('/bad/Messenger-2.0.0.exe'));
    expect(e.code).toBe('download-unverified');
    expect(e.message).toMatch(/does not match.*deleted/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('deletes a file altered after signing', async () => {
    const e = await failure(run('/tampered/Messenger-2.0.0.exe'));
    expect(e.code).toBe('download-unverified');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('deletes a file without a signature', async () => {
    const e = await failure(run('/missing/Messenger-2.0.0.exe'));
    expect(e.code).toBe('download-unverified');
    expect(e.message).toMatch(/no signature.*Messenger-2\.0\.0\.exe\.sig/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a signed release offered as another version (a rollback) or under another name', async () => {
    const replay = await failure(run('/good/Messenger-2.0.0.exe', { version: '3.0.0' }));
    expect(replay.code).toBe('download-unverified');
    expect(replay.message).toMatch(/version 3\.0\.0/);
    const renamed = await failure(run('/renamed/Messenger-2.0.1.exe'));
    expect(renamed.code).toBe('download-unverified');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('with no key configured refuses before downloading; only allowUnsigned keeps an unsigned file', async () => {
    const none = await failure(run('/missing/Messenger-2.0.0.exe', { publicKeys: [] }));
    expect(none.code).toBe('download-unverified');
    expect(none.message).toMatch(/no update key.*allowUnsigned/);
    expect(readdirSync(dir)).toEqual([]);
    const lab = await run('/missing/Messenger-2.0.0.exe', { allowUnsigned: true });
    expect(lab.verified).toBe(false);
    expect(existsSync(lab.path)).toBe(true);
    // allowUnsigned is for files without a signature: a signature that does not verify still counts
    const bad = await failure(run('/bad/Messenger-2.0.0.exe', { allowUnsigned: true }));
    expect(bad.code).toBe('download-unverified');
  });

  it('has the release key built in, and the release script needs the version it signs', () => {
    expect(BUILT_IN_UPDATE_KEYS.length).toBeGreaterThan(0);
    for (const k of BUILT_IN_UPDATE_KEYS) expect(parsePublicKey(k).asymmetricKeyType).toBe('ed25519');
    let out = '';
    try {
      execFileSync(process.execPath, ['scripts/release-sign.ts', join(tmp, 'Messenger-2.0.0.exe')], {
        encoding: 'utf8',
        stdio: 'pipe',
        env: { ...process.env, MESSENGER_UPDATE_KEY: join(tmp, 'keys', 'messenger-update.key') },
      });
    } catch (err) {
      out = String((err as { stderr?: string }).stderr);
    }
    expect(out).toMatch(/--version is required/);
  });

  it('refuses an oversize body by its Content-Length before writing anything', async () => {
    const e = await failure(run('/good/Messenger-2.0.0.exe', { maxBytes: BODY.length - 1 }));
    expect(e.code).toBe('download-too-large');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops an oversize chunked body while streaming', async () => {
    const e = await failure(run('/big-chunked.exe', { maxBytes: 4 * 1024 * 1024 }));
    expect(e.code).toBe('download-too-large');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes the Zone.Identifier stream (the Mark of the Web) when asked', async () => {
    const r = await run('/good/Messenger-2.0.0.exe', { markOfTheWeb: true });
    // On NTFS an alternate stream; elsewhere the same name is a plain file, which shows what was written.
    const zone = readFileSync(`${r.path}:Zone.Identifier`, 'utf8');
    expect(zone).toContain('ZoneId=3');
    expect(zone).toContain(`HostUrl=${server.origin}/good/Messenger-2.0.0.exe`);
  });

  it('the deploy policy pins keys and the cap, and refuses a key that is not Ed25519', () => {
    const ok = checkPolicy({ updates: { publicKeys: [publicKey], maxDownloadBytes: 1000 } });
    expect(ok.problems).toEqual([]);
    expect(ok.policy.updates.allowUnsigned).toBe(false);
    expect(checkPolicy({ updates: { allowUnsigned: true } }).policy.updates.allowUnsigned).toBe(true);
    expect(checkPolicy({ updates: { allowUnsigned: 'yes' } }).problems.join()).toMatch(/allowUnsigned/);
    expect(ok.policy.updates.publicKeys).toEqual([publicKey]);
    expect(ok.policy.updates.maxDownloadBytes).toBe(1000);
    expect(checkPolicy({}).policy.updates.maxDownloadBytes).toBe(1024 ** 3);
    const bad = checkPolicy({ updates: { publicKeys: ['AAAA'], maxDownloadBytes: 0 } });
    expect(bad.problems.join('\n')).toMatch(/publicKeys.*32 octets/);
    expect(bad.problems.join('\n')).toMatch(/maxDownloadBytes/);
    expect(rawPublicKey(parsePublicKey(publicKey))).toBe(publicKey);
  });

  it('the release script refuses a private key inside the repository', () => {
    let out = '';
    try {
      execFileSync(process.execPath, ['scripts/release-sign.ts', '--new-key', 'keys-here'], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (err) {
      out = String((err as { stderr?: string }).stderr);
    }
    expect(out).toMatch(/outside the repository/);
    expect(existsSync('keys-here')).toBe(false);
  });
});
