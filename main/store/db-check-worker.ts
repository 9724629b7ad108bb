// Issue 25: the thorough check (quick_check, ./db-health.ts) on a thread of its own, so that a
// large database is checked while the app already runs: main/services/db-recovery.ts starts it.
import { parentPort, workerData } from 'node:worker_threads';
import { checkDatabase } from './db-health.ts';

parentPort?.postMessage(checkDatabase((workerData as { file: string }).file));
