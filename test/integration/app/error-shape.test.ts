// Both shells give the renderer the same error: one web shell (main/web.ts, signed in to the local
// sandbox) answers the same calls through its real WebSocket to the renderer's web bridge
// (renderer/bridge/web.ts) and through Electron's path — the bundled preload over the real IPC
// binding (main/electron/ipc.ts) into the renderer's apiOver (test/support/preload-bundle.ts) —
// and each refusal arrives as an ApiError of preload/ipc-contract.ts with the same code, message
// and problems. A bad argument is checked once (validate-args.ts) and refused with bad-argument.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebShell } from '../../../main/web.ts';
import type { WebShell } from '../../../main/web.ts';
import { ARG_CHECKS } from '../../../main/services/validate-args.ts';
import { ApiError } from '../../../preload/ipc-contract.ts';
import type { ApiErrorCode } from '../../../preload/ipc-contract.ts';
import type { MessengerApi } from '../../../preload/api.ts';
import { createWebBridge } from '../../../renderer/bridge/web.ts';
import type { WebBridge } from '../../../renderer/bridge/web.ts';
import { buildPreload, loadPreload } from '../../support/preload-bundle.ts';

const APP_URL = 'app://messenger/index.html';

// The browser's WebSocket: Node 24 has it built in; on an older Node the ws package's client.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

let dir = '';
let shell: WebShell;
let web: WebBridge;
let electron: MessengerApi;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'messenger-error-shape-'));
  const staticDir = join(dir, 'renderer');
  await mkdir(staticDir, { recursive: true });
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Messenger</title>');
  shell = await startWebShell({
    dataDir: join(dir, 'data'),
    port: 0,
    staticDir,
    sandbox: true,
    log: () => {},
    env: {},
  });
  web = createWebBridge(`ws://127.0.0.1:${shell.port}/api`, { token: shell.token, session: null });
  const preload = await buildPreload();
  electron = loadPreload(preload.code, APP_URL, shell.app.call, (url) => url === APP_URL).api;
}, 60_000);

afterAll(async () => {
  web?.close();
  await shell?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The error a call rejects with, as the renderer catches it. */
async function refusal(call: (api: MessengerApi) => Promise<unknown>, api: MessengerApi): Promise<ApiError> {
  const err = await call(api).then(
    () => {
      throw new Error('the call was not refused');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

const shape = (e: ApiError) => ({ name: e.name, code: e.code, message: e.message, problems: e.problems });

describe('an error reaches the renderer in the same shape from both shells', () => {
  const cases: Array<[string, ApiErrorCode, (api: MessengerApi) => Promise<unknown>, boolean]> = [
    [
      'a bad argument',
      'bad-argument',
      (api) => api.contacts.add({ name: 'Bob' } as unknown as { name: string; number: string }),
      false,
    ],
    [
      'content that breaks the protocol (problems listed)',
      'invalid-request',
      (api) =>
        api.send.submit({
          recipients: ['447700900502'],
          content: { kind: 'text', text: 'later', sendTimeDelay: 20_000 },
        }),
      true,
    ],
    [
      'invalid recipients (problems listed)',
      'invalid-recipients',
      (api) => api.send.submit({ recipients: ['12', 'abc'], content: { kind: 'text', text: 'hi' } }),
      true,
    ],
    ['a missing record', 'not-found', (api) => api.contacts.delete(999_999), false],
  ];

  for (const [what, code, call, withProblems] of cases) {
    it(what, async () => {
      const fromWeb = await refusal(call, web.api);
      const fromElectron = await refusal(call, electron);
      expect(fromWeb.code).toBe(code);
      expect(shape(fromElectron)).toEqual(shape(fromWeb));
      if (withProblems) expect(fromWeb.problems?.length).toBeGreaterThan(0);
      else expect(fromWeb.problems).toBeUndefined();
    });
  }

  it('a duplicate contact, after the same contact was added through each shell', async () => {
    await web.api.contacts.add({ name: 'Alice', number: '+44 7700 900123' });
    const fromWeb = await refusal(
      (api) => api.contacts.add({ name: 'Again', number: '07700 900123' }),
      web.api,
    );
    const fromElectron = await refusal(
      (api) => api.contacts.add({ name: 'Again', number: '07700 900123' }),
      electron,
    );
    expect(fromWeb.code).toBe('duplicate');
    expect(shape(fromElectron)).toEqual(shape(fromWeb));
  });
});

describe('a bad argument', () => {
  it('is checked once on either path and refused with bad-argument, the service never called', async () => {
    const check = ARG_CHECKS['contacts.add'];
    let checks = 0;
    ARG_CHECKS['contacts.add'] = (value, path) => {
      checks++;
      return check(value, path);
    };
    try {
      const before = (await web.api.contacts.list()).length;
      for (const api of [web.api, electron]) {
        checks = 0;
        const err = await refusal(
          (a) =>
            a.contacts.add({ name: 'Bob', number: 447700900124 } as unknown as {
              name: string;
              number: string;
            }),
          api,
        );
        expect(err.code).toBe('bad-argument');
        expect(err.message).toBe('contacts.add: argument.number must be a string');
        expect(checks).toBe(1);
      }
      expect(await web.api.contacts.list()).toHaveLength(before);
    } finally {
      ARG_CHECKS['contacts.add'] = check;
    }
  });
});
