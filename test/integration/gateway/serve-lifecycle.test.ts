// Issue 23, item 5: `serve` as a user runs it, in a child process. After an image was adapted the
// gateway closed its ports on SIGTERM but stayed alive (its image worker); `serve --sandbox` on a
// port already taken created the demo account anyway and never printed its PIN, then or later.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT } from '../../../protocol/reports.ts';
import { bytesToHex } from '../../../protocol/smart/bytes.ts';
import { postForm } from '../../support/gateway.ts';

const NODE = process.execPath;
const CLI = new URL('../../../gateway/cli.ts', import.meta.url).pathname;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-lifecycle-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function serve(
  data: string,
  ...args: string[]
): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(NODE, [CLI, 'serve', '--sandbox', '--data', data, ...args]);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

function exited(child: ChildProcessWithoutNullStreams, ms: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error(`still running ${ms} ms later`)), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function until(output: () => string, pattern: RegExp, ms = 30_000): Promise<RegExpExecArray> {
  const end = Date.now() + ms;
  for (;;) {
    const m = pattern.exec(output());
    if (m) return m;
    if (Date.now() > end) throw new Error(`no ${pattern} in: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('serve --sandbox', { timeout: 90_000 }, () => {
  it('creates the demo account only once it listens: a taken port leaves none behind', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      const first = serve(dir, '--port', String(port));
      expect(await exited(first.child, 30_000)).not.toBe(0);
      expect(first.output()).not.toMatch(/PIN:/);
    } finally {
      await new Promise((r) => taken.close(r));
    }
    // the next start on the same folder is the first that listens: it creates and prints the account
    const second = serve(dir, '--port', '0');
    try {
      await until(second.output, /PIN:\s+\S+/);
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child, 20_000);
    }
  });

  it('exits on SIGTERM after an image was adapted', async () => {
    const own = await mkdtemp(join(tmpdir(), 'gateway-lifecycle-'));
    const { child, output } = serve(own, '--port', '0');
    try {
      const m = await until(output, /primary:\s+(http:\/\/\S+)[\s\S]*Username:\s+(\S+)\s+PIN:\s+(\S+)/);
      const png = await new Jimp({ width: 400, height: 300, color: 0x3366ccff }).getBuffer('image/png');
      const res = await postForm(m[1]!, '/webservices/http/sendmms', {
        Username: m[2]!,
        PIN: m[3]!,
        ResponseFormat: '1',
        SendTo: '447700900611',
        PhoneMake: 'Nokia',
        PhoneModel: '6610',
        WAPPushFileName1: 'fine.png',
        WAPPushFileData1: bytesToHex(new Uint8Array(png)),
      });
      expect(new URLSearchParams(res.body).get('Report')).toBe(REPORT.accepted);
    } finally {
      child.kill('SIGTERM');
    }
    try {
      expect(await exited(child, 10_000)).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(own, { recursive: true, force: true });
    }
  });
});
