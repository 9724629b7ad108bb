// The preload as Electron loads it: bundled by vite into one CommonJS file (as electron-vite does,
// electron.vite.config.ts), then run in a fresh V8 context whose only module is 'electron'. The
// 'electron' there is a recording stand-in (Electron cannot be launched here): its ipcRenderer is
// wired to the real main-side binding (main/electron/ipc.ts bindApi) with structured clone on the
// way in and out, and its contextBridge copies as the real one documents (plain data copied, an
// Error thrown across rebuilt from its message only). The renderer's side is what main.tsx does:
// apiOver(window.messengerBridge.invoke) of preload/ipc-contract.ts.
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Rollup } from 'vite';
import { bindApi } from '../../main/electron/ipc.ts';
import type { CallFn, HandleFn } from '../../main/electron/ipc.ts';
import { apiOver } from '../../preload/ipc-contract.ts';
import type { ApiEnvelope } from '../../preload/ipc-contract.ts';
import type { ApiChannel, MessengerApi } from '../../preload/api.ts';

/** The preload bundled to one CommonJS chunk (a sandboxed preload cannot load modules). */
export async function buildPreload(): Promise<{ code: string; chunks: number }> {
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      ssr: true,
      lib: { entry: fileURLToPath(new URL('../../preload/index.ts', import.meta.url)), formats: ['cjs'] },
      rollupOptions: { external: ['electron'], output: { entryFileNames: 'index.cjs' } },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
  const chunks = outputs.filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  return { code: chunks[0]?.code ?? '', chunks: chunks.length };
}

/** What crosses the contextBridge: functions stay callable, data is copied, a thrown Error loses its properties. */
function bridgeCopy(value: unknown): unknown {
  if (typeof value === 'function') {
    const fn = value as (...args: unknown[]) => unknown;
    return (...args: unknown[]) => {
      const copyError = (e: unknown): never => {
        throw new Error(
          e instanceof Error || (e && typeof e === 'object') ? String((e as Error).message) : String(e),
        );
      };
      let r: unknown;
      try {
        r = fn(...args.map((a) => (typeof a === 'function' ? a : structuredClone(a))));
      } catch (e) {
        return copyError(e);
      }
      if (r instanceof Promise || (r && typeof (r as Promise<unknown>).then === 'function'))
        return (r as Promise<unknown>).then((v) => bridgeCopy(v), copyError);
      return bridgeCopy(r);
    };
  }
  if (Array.isArray(value)) return value.map(bridgeCopy);
  if (value && typeof value === 'object' && Object.values(value).some((v) => typeof v === 'function')) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bridgeCopy(v)]));
  }
  return structuredClone(value);
}

export interface LoadedPreload {
  /** What the preload exposed, as the page sees it (after the bridge's copy). */
  exposed: Map<string, unknown>;
  /** The modules the bundle required. */
  required: string[];
  /** Deliver an IPC message from the main process to the preload's ipcRenderer listeners. */
  emit: (channel: string, ...args: unknown[]) => void;
  /** The channels ipcRenderer.invoke was called with. */
  invoked: string[];
  /** The MessengerApi as renderer/main.tsx builds it over window.messengerBridge. */
  api: MessengerApi;
}

/** The main side of the IPC a preload talks to (what ipcRenderer reaches). */
export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
}

/**
 * Run a preload bundle as a sandboxed preload runs: a fresh V8 context whose only module is a
 * stand-in 'electron' (contextBridge copying as the real one does, ipcRenderer over `ipc` with
 * structured clone both ways); no process, Buffer or other Node global.
 */
export function runPreloadBundle(bundle: string, ipc: PreloadIpc): Omit<LoadedPreload, 'api'> {
  const exposed = new Map<string, unknown>();
  const required: string[] = [];
  const invoked: string[] = [];
  const rendererListeners = new Map<string, Array<(event: unknown, ...args: unknown[]) => void>>();
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, bridgeCopy(value)),
    },
    ipcRenderer: {
      invoke: async (channel: string, ...args: unknown[]): Promise<unknown> => {
        invoked.push(channel);
        // IPC arguments and answers cross by structured clone
        return structuredClone(await ipc.invoke(channel, ...structuredClone(args)));
      },
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        rendererListeners.set(channel, [...(rendererListeners.get(channel) ?? []), listener]);
      },
    },
  };
  const module = { exports: {} };
  const require = (id: string): unknown => {
    required.push(id);
    if (id === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require ${id}`);
  };
  runInNewContext(bundle, { require, module, exports: module.exports, console });
  const emit = (channel: string, ...args: unknown[]) => {
    for (const l of rendererListeners.get(channel) ?? []) l({ sender: null }, ...structuredClone(args));
  };
  return { exposed, required, emit, invoked };
}

/** The MessengerApi as renderer/main.tsx builds it over what the preload exposed. */
export function rendererApi(exposed: Map<string, unknown>): MessengerApi {
  const bridge = exposed.get('messengerBridge') as
    { invoke(channel: ApiChannel, arg?: unknown): Promise<ApiEnvelope> } | undefined;
  return apiOver((channel, ...args) =>
    bridge ? bridge.invoke(channel, ...args) : Promise.reject(new Error('no messengerBridge exposed')),
  );
}

/** Run the bundle with a stand-in 'electron' whose invoke goes to the real bindApi handlers over `call`. */
export function loadPreload(
  bundle: string,
  senderUrl: string,
  call: CallFn,
  isTrustedSender: (url: string | undefined) => boolean,
): LoadedPreload {
  const handlers = new Map<string, Parameters<HandleFn>[1]>();
  bindApi({ handle: (channel, listener) => handlers.set(channel, listener), call, isTrustedSender });
  const loaded = runPreloadBundle(bundle, {
    invoke: async (channel, ...args) => {
      const h = handlers.get(channel);
      if (!h) throw new Error(`No handler registered for '${channel}'`);
      return h({ senderFrame: { url: senderUrl } }, ...args);
    },
  });
  return { ...loaded, api: rendererApi(loaded.exposed) };
}
