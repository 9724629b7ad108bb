// A gateway in front of the reference gateway that answers manageaccount as the test says (a Report
// code, encoded by the protocol's own encoder) and passes every other request on: what another
// gateway, or one in trouble, may answer to the child-account permission probe. `answer` null
// passes manageaccount on too; `probes` counts the manageaccount requests either way; `intercept`
// drops or holds other requests.
import { createServer } from 'node:http';
import { buildManageResponse } from '../../protocol/responses.ts';
import { listenOnLoopback } from './listen.ts';

export interface FrontControl {
  answer: string | null;
  probes: number;
  /**
   * Asked before a request is passed on (after the manageaccount answer): 'drop' closes the
   * connection unanswered (a gateway in trouble); a promise holds the request until it settles.
   */
  intercept?: (path: string, body: string) => 'pass' | 'drop' | Promise<'pass' | 'drop'>;
  /** Rewrites the gateway's answer to a request passed on (another gateway's way of writing it). */
  rewrite?: (path: string, answer: string) => string;
}

export interface FrontGateway {
  url: string;
  close(): Promise<void>;
}

export async function startFrontGateway(target: string, control: FrontControl): Promise<FrontGateway> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (path.includes('manageaccount')) {
        control.probes++;
        if (control.answer !== null) {
          res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(buildManageResponse({ report: control.answer, text: 'Temporarily unavailable' }));
          return;
        }
      }
      const body = Buffer.concat(chunks);
      void Promise.resolve(control.intercept?.(path, body.toString('utf8')) ?? 'pass').then((go) => {
        if (go === 'drop') req.socket.destroy();
        else pass(path, body);
      });
    });
    const pass = (path: string, body: ReturnType<typeof Buffer.concat>): void => {
      fetch(`${target}${path}`, {
        method: req.method ?? 'GET',
        headers: { 'content-type': req.headers['content-type'] ?? 'text/plain' },
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      }).then(
        async (r) => {
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'text/plain' });
          const answer = Buffer.from(await r.arrayBuffer());
          res.end(control.rewrite ? control.rewrite(path, answer.toString('utf8')) : answer);
        },
        (err: unknown) => res.writeHead(502).end(String(err)),
      );
    };
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, close };
}
