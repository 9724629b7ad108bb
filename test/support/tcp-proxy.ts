// A TCP relay on 127.0.0.1 between a desk and its PostgreSQL, which a test can `cut` as a network
// that goes silent (connections stay open, nothing passes, new ones are not answered) and
// `restore`: what a lost network does, unlike a server that closes its connections. `cut('answers')`
// holds only what the target sends back (a request arrives, its answer waits).
import { createServer, connect } from 'node:net';
import type { Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  cut(only?: 'answers'): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let silent: false | 'both' | 'answers' = false;
  /** What was held back while silent, per direction, sent on restore. */
  const held: Array<{ to: Socket; chunk: Buffer }> = [];
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket, answers: boolean): void => {
    from.on('data', (chunk: Buffer) => {
      if (silent === 'both' || (silent === 'answers' && answers)) held.push({ to, chunk });
      else to.write(chunk);
    });
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    relay(client, upstream, false);
    relay(upstream, client, true);
    const end = (): void => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    cut(only) {
      silent = only ?? 'both';
    },
    restore() {
      silent = false;
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
