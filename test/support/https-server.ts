// A local HTTPS server on 127.0.0.1 with a throwaway self-signed certificate made by openssl at test
// time (CN and subjectAltName 127.0.0.1), for the update download tests. Clients trust it through a
// `ca` option or NODE_EXTRA_CA_CERTS=<certFile>; nothing disables verification.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { listenOnLoopback } from './listen.ts';

export interface TestCert {
  certFile: string;
  cert: string;
  key: string;
}

/** A self-signed certificate for 127.0.0.1 in `dir` (valid one day). */
export function makeTestCert(dir: string): TestCert {
  const certFile = join(dir, 'test-ca.pem');
  const keyFile = join(dir, 'test-key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { certFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

export interface TestHttpsServer {
  origin: string;
  port: number;
  requests: string[];
  close(): Promise<void>;
}

export async function startHttpsServer(
  cert: TestCert,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TestHttpsServer> {
  const requests: string[] = [];
  const server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  const { port, close } = await listenOnLoopback(server);
  return { origin: `https://127.0.0.1:${port}`, port, requests, close };
}

/** Deterministic bytes of a given length (a fake installer). */
export function payload(length: number): Buffer {
  const b = Buffer.alloc(length);
  for (let i = 0; i < length; i++) b[i] = (i * 31 + 7) & 0xff;
  return b;
}

/** Serves `body` in `chunks` pieces, `delayMs` apart (a slow download that can be cancelled). */
export function serveSlowly(res: ServerResponse, body: Buffer, chunks: number, delayMs: number): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
  const size = Math.ceil(body.length / chunks);
  let i = 0;
  const next = (): void => {
    if (res.destroyed) return;
    if (i * size >= body.length) {
      res.end();
      return;
    }
    res.write(body.subarray(i * size, (i + 1) * size));
    i++;
    setTimeout(next, delayMs);
  };
  next();
}
