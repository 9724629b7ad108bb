// The messenger CLI run in this process (main/cli.ts `main`) with its output captured: what the
// tests that drive it against a peer server need.
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
  const code = await main(args, env, io);
  return { code, out, err };
}
