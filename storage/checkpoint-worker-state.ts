// The checkpoint thread's state (./checkpoint-worker.ts), one Int32 shared with the thread that
// started it (./checkpointer.ts): BOOTING → OPEN (its connection open) → CLOSED, or BOOTING →
// STOPPING when asked to stop before it opened the file (it then never does).
export const BOOTING = 0;
export const OPEN = 1;
export const STOPPING = 2;
export const CLOSED = 3;
