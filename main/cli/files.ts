// Files the command line reads (recipient lists, texts, content, CA certificates) and the hidden
// PIN prompt on the terminal.
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { UsageError } from './args.ts';

export async function readText(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(err as Error).message}`);
  }
}

export async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    throw new UsageError(`--file: cannot read ${path}: ${(err as Error).message}`);
  }
}

/** Hidden PIN prompt on the terminal: the typed characters are not echoed. */
export async function promptHidden(question: string): Promise<string | undefined> {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  let muted = false;
  out._writeToOutput = (s: string) => {
    if (!muted) process.stderr.write(s);
  };
  try {
    return await new Promise<string>((resolve) => {
      rl.question(question, (answer) => resolve(answer));
      muted = true;
    });
  } finally {
    muted = false;
    process.stderr.write('\n');
    rl.close();
  }
}
