// A gateway no one here wrote (issue 24): a raw HTTP server whose answers are literal text, written
// as other SOAP toolkits write them, never built by this project's protocol/ code. `answer` gets each
// request (method, path, body bytes) and returns the status, headers and body bytes; every request is
// counted, so a test can say how many calls a client made.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

export interface ForeignRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ForeignAnswer {
  status?: number;
  contentType?: string;
  body: string | Buffer;
}

export interface ForeignServer {
  url: string;
  requests: ForeignRequest[];
  close(): Promise<void>;
}

export async function foreignServer(answer: (req: ForeignRequest) => ForeignAnswer): Promise<ForeignServer> {
  const requests: ForeignRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ForeignRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(r);
      const a = answer(r);
      res.writeHead(a.status ?? 200, { 'content-type': a.contentType ?? 'text/xml; charset=utf-8' });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The provider's types namespace, written out here (not imported) as another toolkit would. */
export const FOREIGN_TYPES_NS = 'http://www.csoft.co.uk/dtd/sendsms5.xsd';

/** A SOAP 1.1 envelope around `body`, as a .NET/Axis-style server writes it (prefix soap, ns1). */
export function foreignEnvelope(body: string, encoding = 'utf-8'): string {
  return (
    `<?xml version="1.0" encoding="${encoding}"?>\n` +
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<soap:Body>${body}</soap:Body></soap:Envelope>`
  );
}

/** A CollectMessages answer holding `messages` (ReplyTo, text, timestamp), in the provider's namespace. */
export function foreignCollectAnswer(
  messages: Array<{ from: string; text: string; at: string }>,
  encoding = 'utf-8',
): string {
  const items = messages
    .map(
      (m) =>
        `<item><SendTo>447700900000</SendTo><ReplyTo>${m.from}</ReplyTo><Timestamp1>${m.at}</Timestamp1>` +
        `<Message><TextMessage>${m.text}</TextMessage></Message></item>`,
    )
    .join('');
  return foreignEnvelope(
    `<ns1:CollectMessagesResponse xmlns:ns1="${FOREIGN_TYPES_NS}"><Report>0</Report>` +
      `<MessageList>${items}</MessageList></ns1:CollectMessagesResponse>`,
    encoding,
  );
}
