// The push side of bench/push-receipts.ts, on a worker thread (so the main thread's CPU time is the
// receiver's alone): SubmitDeliveryReceipt envelopes POSTed to `url` PUSH_CONCURRENCY at a time over
// kept-alive connections, as the reference gateway's pusher does (gateway/network/push.ts). Answers
// 'done' with how many pushes were answered 200.
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { buildRequestEnvelope } from '../protocol/soap/envelope.ts';
import { SOAP_CONTENT_TYPE } from '../protocol/soap/namespaces.ts';

const { url, username, identifiers, concurrency } = workerData as {
  url: string;
  username: string;
  identifiers: string[];
  concurrency: number;
};
const agent = new Agent({ connections: concurrency });
const bodies = identifiers.map((id) =>
  buildRequestEnvelope('SubmitDeliveryReceipt', {
    Username: username,
    Timestamp1: '2026-11-27T17:00:00',
    SentTo: '447400100000',
    MessageIdentifier: id,
    Report: 0,
  }),
);
let next = 0;
let ok = 0;
async function lane(): Promise<void> {
  while (next < bodies.length) {
    const body = bodies[next++] ?? '';
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': SOAP_CONTENT_TYPE, soapaction: '""' },
      dispatcher: agent,
    });
    await res.body.text();
    if (res.statusCode === 200) ok++;
  }
}
parentPort?.once('message', () => {
  void Promise.all(Array.from({ length: concurrency }, lane)).then(async () => {
    await agent.close();
    parentPort?.postMessage({ ok });
  });
});
parentPort?.postMessage('ready');
