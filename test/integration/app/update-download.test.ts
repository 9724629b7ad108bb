// The update download against a real local HTTPS server (self-signed certificate made with openssl
// at test time and trusted through `ca`): progress and completion, a cancel, a truncated body, a
// body whose end cannot be verified, a server error, http and foreign hosts refused, an untrusted certificate refused, and no file ever
// left that looks complete when it is not.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DownloadError, downloadFile } from '../../../main/services/update-download.ts';
import type { DownloadProgress } from '../../../main/services/update-download.ts';
import {
  makeTestCert,
  payload,
  serveSlowly,
  startHttpsServer,
  type TestCert,
  type TestHttpsServer,
} from '../../support/https-server.ts';

const SIZE = 512 * 1024;
const BODY = payload(SIZE);

describe('update download over HTTPS', { timeout: 30_000 }, () => {
  let tmp: string;
  let cert: TestCert;
  let server: TestHttpsServer;
  let dir: string;
  let n = 0;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'messenger-download-'));
    cert = makeTestCert(tmp);
    server = await startHttpsServer(cert, (req, res) => {
      const path = req.url ?? '';
      if (path === '/Messenger-2.0.0.AppImage') serveSlowly(res, BODY, 16, 5);
      else if (path === '/slow') serveSlowly(res, BODY, 64, 200);
      else if (path === '/truncated') {
        res.writeHead(200, { 'content-length': String(SIZE) });
        res.write(BODY.subarray(0, SIZE / 2), () => setTimeout(() => res.socket?.destroy(), 20));
      } else if (path === '/chunked.bin' || path === '/chunked-cut.bin') {
        // No Content-Length: the end of the chunked body is what says it is complete.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write(BODY.subarray(0, SIZE / 2));
        setTimeout(() => {
          if (path === '/chunked-cut.bin') res.socket?.destroy();
          else res.end(BODY.subarray(SIZE / 2));
        }, 20);
      } else if (path === '/close-delimited.bin' || path === '/close-cut.bin') {
        // Neither Content-Length nor chunked: the body ends when the connection closes, so a
        // dropped connection looks the same as the end (written raw: Node's server would chunk it).
        const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n';
        const body = path === '/close-cut.bin' ? BODY.subarray(0, SIZE / 2) : BODY;
        res.socket?.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
      } else if (path === '/named') {
        res.writeHead(200, {
          'content-length': '5',
          'content-disposition': 'attachment; filename="../evil/Setup 2.0.exe"',
        });
        res.end('hello');
      } else if (path === '/redirect-away') {
        res.writeHead(302, { location: 'https://downloads.example.invalid/x.bin' }).end();
      } else if (path === '/redirect-here') {
        res.writeHead(302, { location: '/Messenger-2.0.0.AppImage' }).end();
      } else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such release\n');
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
      fallbackName: 'Messenger-update',
      ca: cert.cert,
      // The transport is this file's subject; signatures are update-signature.test.ts's. These
      // releases are unsigned, as a lab's own builds may be where the policy allows it.
      version: '2.0.0',
      allowUnsigned: true,
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

  it('streams to the Downloads folder with progress, then gives the file its name', async () => {
    const progress: DownloadProgress[] = [];
    const result = await run('/Messenger-2.0.0.AppImage', {
      onProgress: (p) => progress.push(p),
      progressIntervalMs: 0,
    });
    expect(result).toEqual({ path: join(dir, 'Messenger-2.0.0.AppImage'), bytes: SIZE, verified: false });
    expect(readFileSync(result.path).equals(BODY)).toBe(true);
    expect(readdirSync(dir)).toEqual(['Messenger-2.0.0.AppImage']);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.every((p) => p.total === SIZE)).toBe(true);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.received).toBeGreaterThanOrEqual(progress[i - 1]!.received);
    expect(progress[0]!.received).toBe(0);
    expect(progress.at(-1)!.received).toBe(SIZE);
  });

  it('never overwrites an existing file: the second download is "name (1)"', async () => {
    writeFileSync(join(dir, 'Messenger-2.0.0.AppImage'), 'mine');
    const result = await run('/Messenger-2.0.0.AppImage');
    expect(result.path).toBe(join(dir, 'Messenger-2.0.0 (1).AppImage'));
    expect(readFileSync(join(dir, 'Messenger-2.0.0.AppImage'), 'utf8')).toBe('mine');
    expect(readdirSync(dir).sort()).toEqual(['Messenger-2.0.0 (1).AppImage', 'Messenger-2.0.0.AppImage']);
  });

  it('follows a redirect on the same allowed host', async () => {
    const result = await run('/redirect-here');
    expect(result.bytes).toBe(SIZE);
  });

  it('a cancelled download leaves no file at all', async () => {
    const controller = new AbortController();
    let seen = 0;
    const p = run('/slow', {
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (pr) => {
        seen = pr.received;
        if (pr.received > 0) controller.abort();
      },
    });
    const err = await failure(p);
    expect(err.code).toBe('download-cancelled');
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(SIZE);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a truncated response is an error and leaves no file', async () => {
    const err = await failure(run('/truncated'));
    expect(err.code).toBe('download-incomplete');
    expect(err.message).toMatch(/nothing was kept/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('without Content-Length: complete when the chunked body ends, nothing kept when it is cut', async () => {
    const progress: DownloadProgress[] = [];
    const ok = await run('/chunked.bin', { onProgress: (p) => progress.push(p), progressIntervalMs: 0 });
    expect(ok.bytes).toBe(SIZE);
    expect(readFileSync(ok.path).equals(BODY)).toBe(true);
    expect(progress.every((p) => p.total === null)).toBe(true);
    const err = await failure(run('/chunked-cut.bin'));
    expect(err.code).toBe('download-incomplete');
    expect(readdirSync(dir)).toEqual(['chunked.bin']);
  });

  it('refuses a body whose end cannot be verified (no Content-Length, not chunked), complete or cut', async () => {
    for (const path of ['/close-delimited.bin', '/close-cut.bin']) {
      const progress: DownloadProgress[] = [];
      const err = await failure(run(path, { onProgress: (p) => progress.push(p) }));
      expect(err.code, path).toBe('download-incomplete');
      expect(err.message).toMatch(/the server did not say how long the file is/);
      expect(err.message).toMatch(/nothing was kept/);
      expect(progress).toEqual([]);
      expect(readdirSync(dir), path).toEqual([]);
    }
  });

  it('a server error says the status and leaves no file', async () => {
    const err = await failure(run('/missing'));
    expect(err.code).toBe('download-http-error');
    expect(err.message).toMatch(/HTTP 404/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses http before any request', async () => {
    const before = server.requests.length;
    const err = await failure(run('', { url: `http://127.0.0.1:${server.port}/Messenger-2.0.0.AppImage` }));
    expect(err.code).toBe('download-url-insecure');
    expect(err.message).toMatch(/only https/);
    expect(server.requests.length).toBe(before);
  });

  it('refuses a host that is not allowed, also as a redirect target', async () => {
    const err = await failure(run('', { url: `https://localhost:${server.port}/Messenger-2.0.0.AppImage` }));
    expect(err.code).toBe('download-host-not-allowed');
    expect(err.message).toMatch(/localhost is not allowed \(allowed: 127\.0\.0\.1\)/);
    const away = await failure(run('/redirect-away'));
    expect(away.code).toBe('download-host-not-allowed');
    expect(away.message).toMatch(/downloads\.example\.invalid/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a certificate it does not trust (verification is never off)', async () => {
    const err = await failure(
      downloadFile({
        url: `${server.origin}/Messenger-2.0.0.AppImage`,
        dir,
        allowedHosts: ['127.0.0.1'],
        fallbackName: 'x',
        version: '2.0.0',
        allowUnsigned: true,
      }),
    );
    expect(err.code).toBe('download-certificate');
    expect(err.message).toMatch(/not trusted/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes a Content-Disposition name without its folders', async () => {
    const result = await run('/named');
    expect(result.path).toBe(join(dir, '_evil_Setup 2.0.exe'));
    expect(readFileSync(result.path, 'utf8')).toBe('hello');
  });
});
