// Real sockets on 127.0.0.1 for the failover tests: a port nobody listens on, a server that accepts
// and then stalls, one that accepts and resets, and one that answers every POST with recorded bodies.
// Each server counts the requests it received, so a test can prove "no second request anywhere".
import { createServer as createNetServer } from 'node:net';
import type { Server as NetServer, Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer } from 'node:http';

export interface TestServer {
  url: string;
  /** Requests (or connections, for raw socket servers) received. */
  readonly count: () => number;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A URL on 127.0.0.1 whose port was just bound and released: connecting is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Accepts connections, reads the request, and then does `mode`: never answer, or reset. */
export async function rawServer(mode: 'stall' | 'reset'): Promise<TestServer> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => {
      if (mode === 'reset') socket.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => connections,
    requests: [],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An HTTP server that answers each request with `respond(request)` (status 200 unless given). */
export async function recordedServer(
  respond: (req: ReceivedRequest) => string | { status: number; body: string },
): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const answer = respond(received);
      const { status, body } = typeof answer === 'string' ? { status: 200, body: answer } : answer;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => requests.length,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A counting HTTP proxy in front of `target`: every request is forwarded unchanged and counted by path. */
export async function countingProxy(target: string): Promise<TestServer & { byPath: Map<string, number> }> {
  const byPath = new Map<string, number>();
  const requests: ReceivedRequest[] = [];
  const { Pool } = await import('undici');
  const upstream = new Pool(target, { connections: 4 });
  const server: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      byPath.set(path, (byPath.get(path) ?? 0) + 1);
      requests.push({ method: req.method ?? '', path, headers: req.headers, body: body.toString('utf8') });
      upstream
        .request({
          method: (req.method ?? 'GET') as 'GET',
          path,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/octet-stream' },
          body,
        })
        .then(async (up) => {
          const text = await up.body.text();
          res.writeHead(up.statusCode, {
            'content-type': String(up.headers['content-type'] ?? 'text/plain'),
          });
          res.end(text);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    byPath,
    count: () => requests.length,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
}
