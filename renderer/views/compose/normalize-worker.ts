// A Web Worker (created by normalize-numbers.ts) that normalises pasted numbers with protocol/'s
// normalizeMsisdn off the page's main thread: a paste of 100,000 numbers keeps the page responsive.
import { normalizeMsisdn } from '../../../protocol/msisdn.ts';
import type { NormalizeReply, NormalizeRequest } from './normalize-numbers.ts';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<NormalizeRequest>) => void) | null;
  postMessage(message: NormalizeReply): void;
};

scope.onmessage = (e) => {
  const { id, inputs, country } = e.data;
  scope.postMessage({ id, results: inputs.map((input) => normalizeMsisdn(input, country)) });
};
