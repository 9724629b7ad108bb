// A Web Worker (started by normalize-numbers.ts) that splits a pasted list and reads every entry with
// protocol/'s normalizeMsisdn off the page's main thread: a paste of 100,000 numbers keeps the page
// responsive.
import { checkAll } from './normalize-numbers.ts';
import type { CheckReply, CheckRequest } from './normalize-numbers.ts';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<CheckRequest>) => void) | null;
  postMessage(message: CheckReply): void;
};

scope.onmessage = (e) => {
  const { id, raw, country } = e.data;
  scope.postMessage({ id, ...checkAll(raw, country) });
};
