// Worker thread of NumberChecker (./numbers.ts): checks the numbers it is sent, answers in order.
import { parentPort } from 'node:worker_threads';
import { checkRecipient } from './recipient-check.ts';

parentPort?.on('message', (msg: { id: number; numbers: string[] }) => {
  parentPort?.postMessage({ id: msg.id, results: msg.numbers.map(checkRecipient) });
});
