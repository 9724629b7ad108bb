// A test or bench server on a free port of 127.0.0.1, and the close that ends its keep-alive
// connections first (server.close alone waits for clients that keep theirs open).
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Listening {
  port: number;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: HttpServer | HttpsServer): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
