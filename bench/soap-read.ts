// `npm run bench -- soap`: reading the SOAP answer of CollectMessages with 10,000 replies, ours
// (protocol/soap: one streaming pass over saxes, typed by the schema table) against node-soap (the
// library a TypeScript developer would pick; devDependency used only here), on the same bytes in the
// same run. Targets (issue 15, goal 1): ≤ 30 ms and ≥ 3× node-soap. Then a 200,000-message answer
// streamed in 64 KiB chunks, to show memory stays bounded whatever the size of the answer.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { WSDL } from 'soap';
import {
  buildResponseEnvelope,
  createResponseStream,
  parseResponseEnvelope,
} from '../protocol/soap/envelope.ts';
import type { MOMessage } from '../protocol/soap/operations.ts';
import { buildWsdl } from '../protocol/soap/wsdl.ts';

const MESSAGES = 10_000;
const RUNS = 21;
const TARGET_MS = 30;
const TARGET_RATIO = 3;
const BIG = 200_000;
const CHUNK = 64 * 1024;

const TEXTS = [
  'Yes please, count me in for Saturday',
  'Running late, see you at the station & bring the tickets',
  'STOP',
  'Can you call me back when you are free? Thanks',
  'Order 4471 confirmed — delivery between 10:00 and 12:00 <tomorrow>',
];

export function replies(n: number, from = 0): MOMessage[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      SendTo: '447700900000',
      ReplyTo: String(447700100000 + (i % 90_000)),
      Timestamp1: `2026-11-25T${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
      Message: { TextMessage: `${TEXTS[i % TEXTS.length] ?? ''} (#${i})` },
    };
  });
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function timed(fn: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

export async function run(): Promise<void> {
  const xml = buildResponseEnvelope('CollectMessages', {
    Report: 0,
    MessageList: { item: replies(MESSAGES) },
  });
  const bytes = new TextEncoder().encode(xml);
  const limits = { maxBytes: bytes.byteLength, maxElements: 1_000_000 };

  // node-soap reads with the WSDL we serve (so it types the answer as ours does)
  const wsdl = new WSDL(
    buildWsdl({ endpointUrl: 'http://127.0.0.1/sendsms5' }),
    'http://127.0.0.1/sendsms5?wsdl',
    {},
  );
  await new Promise<void>((resolve) => wsdl.onReady(() => resolve()));
  const theirs = wsdl.xmlToObject(xml) as {
    Body: { CollectMessagesResponse: { MessageList: { item: unknown[] } } };
  };
  const ours = parseResponseEnvelope('CollectMessages', bytes, limits);
  if (
    ours.MessageList.item.length !== MESSAGES ||
    theirs.Body.CollectMessagesResponse.MessageList.item.length !== MESSAGES
  ) {
    throw new Error('the two readers disagree on the number of messages');
  }

  // interleave the runs so both see the same machine load
  const oursMs: number[] = [];
  const streamMs: number[] = [];
  const soapMs: number[] = [];
  for (let round = 0; round < 3; round++) {
    soapMs.push(...timed(() => wsdl.xmlToObject(xml)));
    oursMs.push(...timed(() => parseResponseEnvelope('CollectMessages', bytes, limits)));
    streamMs.push(
      ...timed(() => {
        const stream = createResponseStream('CollectMessages');
        let n = 0;
        for (let at = 0; at < bytes.byteLength; at += CHUNK)
          n += stream.write(bytes.subarray(at, at + CHUNK)).length;
        n += stream.end().items.length;
        if (n !== MESSAGES) throw new Error(`streamed ${n} messages`);
      }),
    );
  }
  const ms = median(oursMs);
  const streamed = median(streamMs);
  const peer = median(soapMs);
  const mb = (bytes.byteLength / 2 ** 20).toFixed(2);
  console.log(
    `CollectMessages answer: ${MESSAGES.toLocaleString('en-GB')} messages, ${mb} MiB; medians of ${soapMs.length} runs`,
  );
  console.log(`  node-soap xmlToObject (baseline): ${peer.toFixed(1)} ms`);
  const verdict = (t: number): string =>
    `≤ ${TARGET_MS} ms: ${t <= TARGET_MS ? 'met' : 'NOT met'}; ≥ ${TARGET_RATIO}×: ${peer / t >= TARGET_RATIO ? 'met' : 'NOT met'}`;
  console.log(
    `  ours, whole answer:               ${ms.toFixed(1)} ms  ${(peer / ms).toFixed(2)}× node-soap  (${verdict(ms)})`,
  );
  console.log(
    `  ours, streamed in 64 KiB chunks:  ${streamed.toFixed(1)} ms  ${(peer / streamed).toFixed(2)}× node-soap  (${verdict(streamed)})`,
  );
  console.log(`  load average during the run: ${loadavg()[0]?.toFixed(1) ?? '?'} (${cpus().length} cores)`);

  // Bounded memory: a 200,000-message answer, generated and read chunk by chunk, never whole.
  const encoder = new TextEncoder();
  const stream = createResponseStream('CollectMessages');
  const head = buildResponseEnvelope('CollectMessages', { Report: 0, MessageList: { item: replies(1) } });
  const [before, after] = head.split(/<item>.*<\/item>/s);
  // live heap after a full collection, sampled every 20,000 messages: garbage does not count
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const live = (): number => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  const heapStart = live();
  let heapPeak = heapStart;
  let total = 0;
  let sent = 0;
  const t = performance.now();
  stream.write(encoder.encode(before ?? ''));
  for (let from = 0; from < BIG; from += 500) {
    const page = buildResponseEnvelope('CollectMessages', {
      Report: 0,
      MessageList: { item: replies(500, from) },
    }).match(/<item>.*<\/item>/s)?.[0];
    const chunk = encoder.encode(page ?? '');
    sent += chunk.byteLength;
    for (let at = 0; at < chunk.byteLength; at += CHUNK)
      total += stream.write(chunk.subarray(at, at + CHUNK)).length;
    if (from % 20_000 === 0) heapPeak = Math.max(heapPeak, live());
  }
  stream.write(encoder.encode(after ?? ''));
  total += stream.end().items.length;
  const bigMs = performance.now() - t;
  console.log(
    `  ${total.toLocaleString('en-GB')} messages (${(sent / 2 ** 20).toFixed(0)} MiB) streamed in ${bigMs.toFixed(0)} ms (with generating them); live heap grew at most ${((heapPeak - heapStart) / 2 ** 20).toFixed(1)} MiB`,
  );
}
