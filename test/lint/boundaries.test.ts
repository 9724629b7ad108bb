import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../eslint.config.js';

// The layout rules of docs/ARCHITECTURE.md are enforced by eslint.config.js. These cases prove that a
// deliberate violation fails lint, and that the allowed imports pass.
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter(
      (m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'layers/allowed-imports',
    )
    .map((m) => m.message);
}

describe('layout boundaries', () => {
  it.each([
    ['protocol/x.ts', "import { a } from '../main/client/index.ts';\nexport const b = a;\n"],
    ['protocol/x.ts', "import { a } from '../gateway/server.ts';\nexport const b = a;\n"],
    ['protocol/x.ts', "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n"],
    ['renderer/x.ts', "import { a } from '../main/store/app-store.ts';\nexport const b = a;\n"],
    ['renderer/x.ts', "import { a } from '../preload/index.ts';\nexport const b = a;\n"],
    ['renderer/x.ts', "import { a } from '../preload/api.ts';\nexport const b = a;\n"],
    ['main/services/x.ts', "import { app } from 'electron';\nexport const b = app;\n"],
    ['gateway/x.ts', "import { app } from 'electron';\nexport const b = app;\n"],
    ['gateway/x.ts', "import { a } from '../main/client/index.ts';\nexport const b = a;\n"],
    ['gateway/store/x.ts', "import { a } from '../../main/store/db.ts';\nexport const b = a;\n"],
    ['gateway/store/x.ts', "import { a } from '../../main/store/sqlite.ts';\nexport const b = a;\n"],
    ['main/store/x.ts', "import Store from 'electron-store';\nexport const b = Store;\n"],
    // protocol/ and the renderer run in a page: no Node built-in (with or without node:), no Node-only package.
    ['protocol/x.ts', "import { readFile } from 'fs/promises';\nexport const b = readFile;\n"],
    ['protocol/x.ts', "import { fetch } from 'undici';\nexport const b = fetch;\n"],
    ['protocol/x.ts', "import WebSocket from 'ws';\nexport const b = WebSocket;\n"],
    ['protocol/x.ts', "import { Jimp } from 'jimp';\nexport const b = Jimp;\n"],
    ['protocol/x.ts', "import Conf from 'conf';\nexport const b = Conf;\n"],
    ['protocol/x.ts', "import Store from 'electron-store';\nexport const b = Store;\n"],
    ['renderer/x.ts', "import WebSocket from 'ws';\nexport const b = WebSocket;\n"],
    ['renderer/x.ts', "import { Worker } from 'worker_threads';\nexport const b = Worker;\n"],
    // main/client/ imports only protocol/, its own files, undici and Node built-ins.
    ['main/client/x.ts', "import { a } from '../store/db.ts';\nexport const b = a;\n"],
    ['main/client/x.ts', "import { a } from '../services/app.ts';\nexport const b = a;\n"],
    ['main/client/x.ts', "import { a } from '../../gateway/server.ts';\nexport const b = a;\n"],
    ['main/client/x.ts', "import { a } from '../../preload/api.ts';\nexport const b = a;\n"],
    ['main/client/x.ts', "import WebSocket from 'ws';\nexport const b = WebSocket;\n"],
    ['main/client/x.ts', "import { app } from 'electron';\nexport const b = app;\n"],
    // main/store/ is persistence: no services, no client, no Electron.
    ['main/store/x.ts', "import { a } from '../services/app.ts';\nexport const b = a;\n"],
    ['main/store/x.ts', "import { a } from '../client/gateway-client.ts';\nexport const b = a;\n"],
    ['main/store/x.ts', "import { a } from '../electron/secrets.ts';\nexport const b = a;\n"],
    ['main/store/x.ts', "import { app } from 'electron';\nexport const b = app;\n"],
    ['main/store/x.ts', "import { a } from '../services/sub/deep.ts';\nexport const b = a;\n"],
    // main/services/ runs in both shells: nothing of main/electron/, no Electron.
    ['main/services/x.ts', "import { a } from '../electron/ipc.ts';\nexport const b = a;\n"],
    ['main/services/x.ts', "import { a } from '../../main/electron/ipc.ts';\nexport const b = a;\n"],
    ['main/services/sub/x.ts', "import { a } from '../../electron/ipc.ts';\nexport const b = a;\n"],
    [
      'main/services/x.ts',
      "import { BrowserWindow } from 'electron/main';\nexport const b = BrowserWindow;\n",
    ],
    // The rest of main/ keeps its old rules.
    ['main/x.ts', "import { app } from 'electron';\nexport const b = app;\n"],
    ['main/x.ts', "import { a } from '../renderer/App.tsx';\nexport const b = a;\n"],
  ])('%s: %s is rejected', async (file, code) => {
    expect(await restrictedImportErrors(file, code)).not.toEqual([]);
  });

  it.each([
    [
      'renderer/x.ts',
      "import type { MessengerApi } from '../preload/api.ts';\nexport type B = MessengerApi;\n",
    ],
    ['renderer/x.ts', "import { a } from '../protocol/index.ts';\nexport const b = a;\n"],
    ['main/electron/x.ts', "import { app } from 'electron';\nexport const b = app;\n"],
    ['gateway/x.ts', "import { a } from '../protocol/index.ts';\nexport const b = a;\n"],
    ['main/client/x.ts', "import { a } from '../../protocol/index.ts';\nexport const b = a;\n"],
    ['gateway/store/x.ts', "import { a } from '../../storage/sqlite.ts';\nexport const b = a;\n"],
    ['main/electron/x.ts', "import Store from 'electron-store';\nexport const b = Store;\n"],
    ['main/store/x.ts', "import Conf from 'conf';\nexport const b = Conf;\n"],
    ['main/client/x.ts', "import { a } from '../../protocol/soap/envelope.ts';\nexport const b = a;\n"],
    ['main/client/x.ts', "import { a } from './transport.ts';\nexport const b = a;\n"],
    ['main/client/x.ts', "import { Agent } from 'undici';\nexport const b = Agent;\n"],
    ['main/client/x.ts', "import { createServer } from 'node:http';\nexport const b = createServer;\n"],
    ['main/client/x.ts', "import { connect } from 'tls';\nexport const b = connect;\n"],
    ['protocol/x.ts', "import { XMLParser } from 'fast-xml-parser';\nexport const b = XMLParser;\n"],
    ['protocol/x.ts', "import ICAL from 'ical.js';\nexport const b = ICAL;\n"],
    [
      'protocol/x.ts',
      "import { parsePhoneNumber } from 'libphonenumber-js/min';\nexport const b = parsePhoneNumber;\n",
    ],
    ['renderer/x.ts', "import Papa from 'papaparse';\nexport const b = Papa;\n"],
    ['main/store/x.ts', "import { a } from '../../protocol/msisdn.ts';\nexport const b = a;\n"],
    ['main/store/x.ts', "import { DatabaseSync } from 'node:sqlite';\nexport const b = DatabaseSync;\n"],
    ['main/store/x.ts', "import type { Contact } from '../../domain/index.ts';\nexport type B = Contact;\n"],
    ['main/services/x.ts', "import { a } from '../store/app-store.ts';\nexport const b = a;\n"],
    ['main/services/x.ts', "import { a } from '../client/gateway-client.ts';\nexport const b = a;\n"],
    ['main/electron/x.ts', "import { a } from '../services/app.ts';\nexport const b = a;\n"],
    ['main/x.ts', "import { a } from './client/gateway-client.ts';\nexport const b = a;\n"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await restrictedImportErrors(file, code)).toEqual([]);
  });
});

// Issue 27: every entry of the allow-list (eslint.config.js LAYERS) fires: an import of a folder it
// does not name is refused, each folder it names passes, and a `types` entry passes as types only.
describe('layers: each folder imports only what it names', () => {
  const layers = LAYERS;
  /** A file of the layer `at` (a folder entry gets a new file in it), and a specifier to `target`. */
  const fileIn = (at: string): string => (at.endsWith('/') ? `${at}x.ts` : at);
  const specifier = (file: string, target: string): string => {
    const up = '../'.repeat(file.split('/').length - 1);
    return `${up}${target}${target.endsWith('/') ? 'y.ts' : ''}`;
  };
  const TOP = [
    'storage/',
    'protocol/',
    'domain/',
    'gateway/',
    'main/client/',
    'main/store/',
    'main/services/',
    'main/cli/',
    'main/electron/',
    'main/web.ts',
    'preload/ipc-contract.ts',
    'preload/api.ts',
    'renderer/',
  ];
  const cases = Object.entries(layers).flatMap(([at, rule]) => {
    const file = fileIn(at);
    const own = (target: string): boolean =>
      target.startsWith(at) || (!at.endsWith('/') && target.startsWith(at.slice(0, at.lastIndexOf('/') + 1)));
    const named = (target: string): boolean =>
      [...rule.may, ...(rule.types ?? [])].some((m) => target.startsWith(m) || m.startsWith(target));
    return TOP.filter((t) => !own(t) && !named(t)).map((t) => [file, specifier(file, t)] as const);
  });

  it.each(cases)('%s may not import %s', async (file, spec) => {
    const errors = await restrictedImportErrors(file, `import { a } from '${spec}';\nexport const b = a;\n`);
    expect(errors.join(' ')).toContain('may import only');
  });

  it.each(
    Object.entries(layers).flatMap(([at, rule]) =>
      rule.may.map((m) => [fileIn(at), specifier(fileIn(at), m)] as const),
    ),
  )('%s may import %s', async (file, spec) => {
    expect(await restrictedImportErrors(file, `import { a } from '${spec}';\nexport const b = a;\n`)).toEqual(
      [],
    );
  });

  it.each(
    Object.entries(layers).flatMap(([at, rule]) =>
      (rule.types ?? []).map((m) => [fileIn(at), specifier(fileIn(at), m)] as const),
    ),
  )('%s may import the types of %s, not its values', async (file, spec) => {
    expect(
      await restrictedImportErrors(file, `import type { A } from '${spec}';\nexport type B = A;\n`),
    ).toEqual([]);
    expect(
      (await restrictedImportErrors(file, `import { a } from '${spec}';\nexport const b = a;\n`)).join(' '),
    ).toContain('may import only');
  });

  it('a file imports its own folder, also one with an entry of its own', async () => {
    expect(
      await restrictedImportErrors(
        'main/services/x.ts',
        "import { a } from './sandbox-host.ts';\nexport const b = a;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImportErrors(
        'main/services/sandbox-host.ts',
        "import { a } from './app.ts';\nexport const b = a;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImportErrors(
        'protocol/soap/x.ts',
        "import { a } from '../limits.ts';\nexport const b = a;\n",
      ),
    ).toEqual([]);
  });
});

// Electron has no window.prompt and confirm/alert block the renderer: the renderer uses its Dialog.
describe('no browser dialogs in the renderer', () => {
  async function dialogErrors(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? [])
      .filter((m) => m.ruleId === 'no-restricted-globals' || m.ruleId === 'no-restricted-properties')
      .map((m) => m.message);
  }

  it.each([
    "export const a = window.prompt('Template name');\n",
    "export const a = window.confirm('Delete?');\n",
    "window.alert('Saved');\n",
    "export const a = prompt('Template name');\n",
    "export const a = confirm('Delete?');\n",
    "alert('Saved');\n",
    "export const a = globalThis.confirm('Delete?');\n",
  ])('renderer/x.tsx: %s is rejected', async (code) => {
    const errors = await dialogErrors('renderer/x.tsx', code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('useDialog()');
  });

  it.each([
    // The Dialog's own API, a local binding named like the global, and the rule stays in the renderer.
    [
      'renderer/x.tsx',
      'declare const dialog: { confirm(o: object): Promise<boolean> };\nexport const a = dialog.confirm({});\n',
    ],
    ['renderer/x.tsx', 'export function f(confirm: () => boolean) {\n  return confirm();\n}\n'],
    ['main/x.ts', "export const a = globalThis.confirm?.('Delete?');\n"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await dialogErrors(file, code)).toEqual([]);
  });
});
