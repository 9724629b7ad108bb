// Shared by the e2e tests: the web shell as a child process, and Chromium's flags.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Shell {
  child: ChildProcess;
  url: string;
  stderr: string[];
}

export interface ShellOptions {
  /** Sign in to the local sandbox (default true). */
  sandbox?: boolean;
  /** More arguments of main/web.ts (e.g. --downloads DIR). */
  args?: string[];
  /** Added to the child's environment (e.g. NODE_EXTRA_CA_CERTS). */
  env?: Record<string, string>;
}

export async function startShell(dataDir: string, opts: ShellOptions = {}): Promise<Shell> {
  const child = spawn(
    join(ROOT, 'node_modules/.bin/node'),
    [
      'main/web.ts',
      '--port',
      '0',
      '--data',
      dataDir,
      ...(opts.sandbox === false ? [] : ['--sandbox']),
      ...(opts.args ?? []),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
    },
  );
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL line in 150 s:\n${stderr.join('')}`)), 150_000);
    lines.on('line', (line) => {
      const m = /^URL: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/.exec(line);
      if (m?.[1]) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web shell exited with ${code}:\n${stderr.join('')}`));
    });
  });
  return { child, url, stderr };
}

export async function stopShell(shell: Shell): Promise<void> {
  if (shell.child.exitCode !== null || shell.child.signalCode !== null) return;
  const exited = new Promise((r) => shell.child.once('exit', r));
  shell.child.kill('SIGTERM');
  await exited;
}
