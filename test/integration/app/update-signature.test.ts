// Issue 17: signed updates against a real local HTTPS server. The release is signed by
// scripts/release-sign.ts (the script an admin runs, in a child process, with its key outside the
// repository); the download keeps a file only when "<url>.sig" verifies against a configured key:
// good signature kept, bad or missing signature deleted with the reason, an oversize body refused
// while streaming (with and without Content-Length), no key configured → kept but not verified,
// and the Zone.Identifier stream written when asked (as on Windows).
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
import { parsePublicKey, rawPublicKey, signedMessage } from '../../../main/services/update-signature.ts';
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
  const sigs = new Map<string, Buffer>();

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
    execFileSync(process.execPath, ['scripts/release-sign.ts', installer], {
      env: { ...process.env, MESSENGER_UPDATE_KEY: join(keys, 'messenger-update.key') },
    });
    sigs.set('/good.exe.sig', readFileSync(`${installer}.sig`));
    // The same file signed by someone else's key.
    const other = generateKeyPairSync('ed25519').privateKey;
    const digest = createHash('sha512').update(BODY).digest();
    sigs.set('/bad.exe.sig', Buffer.from(sign(null, signedMessage(digest), other).toString('base64')));
    server = await startHttpsServer(cert, (req, res) => {
      const path = req.url ?? '';
      const sig = sigs.get(path);
      if (sig) res.writeHead(200, { 'content-length': String(sig.length) }).end(sig);
      else if (path === '/good.exe' || path === '/bad.exe' || path === '/missing.exe')
        res.writeHead(200, { 'content-length': String(BODY.length) }).end(BODY);
      else if (path === '/tampered.exe') {
        const t = Buffer.from(BODY);
        t[1000] = (t[1000] ?? 0) ^ 1;
        res.writeHead(200, { 'content-length': String(t.length) }).end(t);
      } else if (path === '/big-chunked.exe') {
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
    sigs.set('/tampered.exe.sig', sigs.get('/good.exe.sig')!);
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
    const r = await run('/good.exe');
    expect(r.verified).toBe(true);
    expect(readFileSync(r.path).equals(BODY)).toBe(true);
    expect(readdirSync(dir)).toEqual(['good.exe']);
  });

  it('deletes a file signed by another key, and says why', async () => {
    const e = await failure(run('/bad.exe'));
    expect(e.code).toBe('download-unverified');
    expect(e.message).toMatch(/does not match.*deleted/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('deletes a file altered after signing', async () => {
    const e = await failure(run('/tampered.exe'));
    expect(e.code).toBe('download-unverified');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('deletes a file without a signature', async () => {
    const e = await failure(run('/missing.exe'));
    expect(e.code).toBe('download-unverified');
    expect(e.message).toMatch(/no signature.*missing\.exe\.sig/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('with no key configured keeps the file, marked not verified', async () => {
    const r = await run('/missing.exe', { publicKeys: [] });
    expect(r.verified).toBe(false);
    expect(existsSync(r.path)).toBe(true);
  });

  it('refuses an oversize body by its Content-Length before writing anything', async () => {
    const e = await failure(run('/good.exe', { maxBytes: BODY.length - 1 }));
    expect(e.code).toBe('download-too-large');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops an oversize chunked body while streaming', async () => {
    const e = await failure(run('/big-chunked.exe', { maxBytes: 4 * 1024 * 1024 }));
    expect(e.code).toBe('download-too-large');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes the Zone.Identifier stream (the Mark of the Web) when asked', async () => {
    const r = await run('/good.exe', { markOfTheWeb: true });
    // On NTFS an alternate stream; elsewhere the same name is a plain file, which shows what was written.
    const zone = readFileSync(`${r.path}:Zone.Identifier`, 'utf8');
    expect(zone).toContain('ZoneId=3');
    expect(zone).toContain(`HostUrl=${server.origin}/good.exe`);
  });

  it('the deploy policy pins keys and the cap, and refuses a key that is not Ed25519', () => {
    const ok = checkPolicy({ updates: { publicKeys: [publicKey], maxDownloadBytes: 1000 } });
    expect(ok.problems).toEqual([]);
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
