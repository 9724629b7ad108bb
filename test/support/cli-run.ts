// The messenger CLI run in this process (main/cli.ts `main`) with its output captured: what the
// tests that drive it against a peer server need. Without MESSENGER_DATA in `env`, each run gets a
// data folder of its own (issue 25: `inbox` keeps replies there), removed after the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../main/cli.ts';
import type { CliIO } from '../../main/cli.ts';

export async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    promptPin: () => Promise.resolve(undefined),
  };
  const data = env.MESSENGER_DATA ? null : mkdtempSync(join(tmpdir(), 'messenger-cli-data-'));
  try {
    const code = await main(args, data === null ? env : { ...env, MESSENGER_DATA: data }, io);
    return { code, out, err };
  } finally {
    if (data !== null) rmSync(data, { recursive: true, force: true });
  }
}
