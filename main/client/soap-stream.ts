// A SOAP call whose answer is read as it arrives (issue 16, "no reply is ever lost"): the body goes
// chunk by chunk through protocol/soap's streaming reader, and the items of its streamed list (the
// messages of CollectMessages) go to `keep` as soon as each chunk completes them. Nothing limits the
// size of the whole answer; the reader caps each item, so memory stays bounded per item.
import {
  buildRequestEnvelope,
  createResponseStream,
  parseResponseEnvelope,
} from '../../protocol/soap/envelope.ts';
import type { SoapStreamedItem } from '../../protocol/soap/envelope.ts';
import { SoapBuildError, SoapFaultError, SoapParseError } from '../../protocol/soap/errors.ts';
import type { SoapProfile } from '../../protocol/soap/namespaces.ts';
import type { SoapOperation, SoapRequests, SoapResponses } from '../../protocol/soap/operations.ts';
import { errorText, faultRejected } from './interpret.ts';
import { ValidationError } from './results.ts';
import type { Result } from './results.ts';
import type { BinaryBody, HttpTransport } from './transport.ts';
import { SOAP_CONTENT_TYPE } from '../../protocol/soap/namespaces.ts';
import { charsetOf } from '../../protocol/soap/xml-encoding.ts';

/** A SOAP call whose answer's streamed list (SOAP_STREAMED_LISTS) goes to `keep` as it is read. */
export async function soapStream<K extends SoapOperation>(
  transport: HttpTransport,
  endpoint: { path: string; profile: SoapProfile },
  op: K,
  req: SoapRequests[K],
  signal: AbortSignal | undefined,
  keep: (items: Array<SoapStreamedItem<K>>) => Promise<void>,
  raw?: (chunk: Uint8Array, charset: string | undefined) => void,
): Promise<Result<{ response: SoapResponses[K]; count: number }>> {
  let body: string;
  try {
    body = buildRequestEnvelope(op, req, endpoint.profile);
  } catch (err) {
    if (err instanceof SoapBuildError) {
      throw new ValidationError([
        { field: err.path, rule: 'soap-schema', value: undefined, message: err.message },
      ]);
    }
    throw err;
  }
  const res = await transport.postStream(
    { path: endpoint.path, body, contentType: SOAP_CONTENT_TYPE, headers: { soapaction: '""' }, signal },
    async (chunks, _status, contentType) => {
      const reader = createResponseStream(op, { charset: charsetOf(contentType) });
      let count = 0;
      try {
        for await (const chunk of chunks) {
          raw?.(chunk, charsetOf(contentType)); // issue 25: the bytes as received, before they are parsed
          const items = reader.write(chunk);
          count += items.length;
          if (items.length > 0) await keep(items);
        }
        const end = reader.end();
        count += end.items.length;
        if (end.items.length > 0) await keep(end.items);
        return { ok: true as const, response: end.response, count };
      } catch (error) {
        if (error instanceof SoapFaultError || error instanceof SoapParseError) {
          return { ok: false as const, error, count };
        }
        throw error;
      }
    },
  );
  if (res.kind === 'unsent') return { outcome: 'unsent', reason: res.reason };
  if (res.kind === 'unknown') return { outcome: 'unknown', reason: res.reason, server: res.server };
  const read = res.body;
  if (read.ok)
    return { outcome: 'ok', value: { response: read.response, count: read.count }, server: res.server };
  if (read.error instanceof SoapFaultError) {
    return faultRejected(read.error, res.server);
  }
  const status = res.status !== 200 ? `HTTP ${res.status}, ` : '';
  const kept = read.count > 0 ? ` after ${read.count} messages were read and kept` : '';
  return {
    outcome: 'unknown',
    reason: `${status}the gateway's SOAP answer could not be read${kept} (${errorText(read.error)}); not sent again`,
    server: res.server,
  };
}

/**
 * A whole SOAP answer read from its bytes (issue 24): its byte order mark, HTTP charset or XML
 * declaration say how they are encoded. Throws what parseResponseEnvelope throws.
 */
export function readSoapAnswer<K extends SoapOperation>(op: K, body: BinaryBody): SoapResponses[K] {
  return parseResponseEnvelope(op, body.bytes, { charset: charsetOf(body.contentType) });
}
