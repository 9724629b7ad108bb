// Worker thread of adaptInWorker (./adapt-pool.ts): decodes, scales and encodes images off the
// gateway's event loop (issue 17), one message at a time.
import { parentPort } from 'node:worker_threads';
import { adaptContent } from './adapt.ts';
import type { HandsetProfile } from './adapt.ts';
import { ImageError } from './image-header.ts';

interface Job {
  id: number;
  bytes: Uint8Array;
  contentType: string;
  profile: HandsetProfile;
  disableRepurposing: boolean;
}

parentPort?.on('message', (job: Job) => {
  adaptContent(job.bytes, job.contentType, job.profile, { disableRepurposing: job.disableRepurposing }).then(
    (result) => parentPort?.postMessage({ id: job.id, result }),
    (err: unknown) =>
      parentPort?.postMessage({
        id: job.id,
        error: err instanceof Error ? err.message : String(err),
        image: err instanceof ImageError,
      }),
  );
});
