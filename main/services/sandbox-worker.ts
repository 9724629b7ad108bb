// The local sandbox gateway's own thread (issue 15): ./sandbox.ts starts this file as a worker
// thread of the app's process, so the reference gateway (submit, storage, the simulated network,
// receipt pushes) runs on its own event loop, beside the app's main thread instead of between its
// work. What it does is ./sandbox-host.ts's, over this thread's parentPort.
import { parentPort, workerData } from 'node:worker_threads';
import { serveSandbox } from './sandbox-host.ts';
import type { SandboxReply, SandboxWorkerData } from './sandbox-host.ts';

const port = parentPort;
if (!port)
  throw new Error('main/services/sandbox-worker.ts runs as a worker thread (./sandbox.ts starts it)');
// First: every module has loaded. A failure before this is the thread not starting (./sandbox.ts then
// runs the host on the main thread); after it, the gateway's own failure.
port.postMessage({ type: 'loaded' } satisfies SandboxReply);
void serveSandbox(workerData as SandboxWorkerData, {
  post: (reply) => port.postMessage(reply),
  onRequest: (handler) => port.on('message', handler),
});
