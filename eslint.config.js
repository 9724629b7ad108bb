// ESLint flat config. Besides style and correctness, it enforces the layout boundaries of
// docs/ARCHITECTURE.md with import restrictions per folder (test/lint/boundaries.test.ts proves
// that a violation fails).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve as resolvePath } from 'node:path';

/** Node's built-in modules without the node: prefix (fs, fs/promises, …); 'node:*' is a pattern below. */
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_') && !name.startsWith('node:'));
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** npm packages that need Node (sockets, the file system, native bindings): never in code that runs in a page. */
const NODE_ONLY_PACKAGES = ['undici', 'ws', 'jimp', 'conf', 'electron-store'];

const electron = {
  name: 'electron',
  message:
    "Only main/electron/ (and preload's bridge) may import 'electron' (or electron-store, which loads it).",
};
const electronPatterns = ['electron/*', 'electron-store'];

/** Restrictions of code that runs in a page (protocol/ and renderer/): no Node, no Node-only package. */
const noNode = (message) => ({
  paths: [
    electron,
    ...NODE_BUILTINS.map((name) => ({ name, message })),
    ...NODE_ONLY_PACKAGES.map((name) => ({ name, message: `${name} needs Node: ${message}` })),
  ],
  patterns: [
    { group: ['node:*'], message },
    {
      group: NODE_ONLY_PACKAGES.map((name) => `${name}/*`).concat(['@jimp/*']),
      message: `A Node-only package: ${message}`,
    },
    { group: electronPatterns, message: electron.message },
  ],
});

/** What every folder of main/ except main/electron/ may not import (packages; folders: LAYERS). */
const mainCommon = {
  paths: [electron],
  patterns: [{ group: electronPatterns, message: electron.message }],
};

/**
 * main/client/ is the gateway client: the spec (protocol/), its own files, undici and Node's
 * built-ins; nothing of the app (services, store, electron) or of the reference gateway.
 */
const clientAllowed = [
  '\\./', // its own files
  '(?:\\.\\./)+protocol/',
  'undici(?:/|$)',
  'node:',
  ...NODE_BUILTINS.map((name) => `${escapeRegex(name)}$`),
];
const clientOnly = {
  regex: `^(?!${clientAllowed.join('|')})`,
  message: 'main/client/ imports only protocol/, its own files, undici and Node built-ins.',
};

/**
 * Layering by allow-list (issue 27, as VS Code's layers): each folder (or a file with a wider
 * right) names the folders and files of this repository it may import; anything else is refused.
 * A file imports its own folder freely (the most specific entry below is its folder). A folder
 * below another is its own layer: main/services/ is not main/. `types` may be imported with
 * `import type` only. Folders outside this table (test/, bench/, scripts/) import anything.
 *
 * A small rule of our own: no-restricted-imports matches specifiers as written, and '../' counts
 * differ with depth, so it cannot say "only these folders"; this rule resolves each relative
 * specifier against the importing file first (eslint-plugin-import's no-restricted-paths is not
 * installed). Packages and Node built-ins are not its business: the rules further down refuse
 * Node and Node-only packages in page code, and Electron outside main/electron/.
 */
export const LAYERS = {
  'storage/': { may: [] },
  'protocol/': { may: [] },
  // The app's own model (issue 27), shared by the store, the services, the preload API and the renderer.
  'domain/': { may: ['protocol/'] },
  'gateway/': { may: ['protocol/', 'storage/'] },
  'main/client/': { may: ['protocol/'] },
  'main/store/': { may: ['protocol/', 'storage/', 'domain/'] },
  'main/services/': {
    may: ['main/client/', 'main/store/', 'main/office/', 'protocol/', 'domain/', 'preload/ipc-contract.ts'],
    types: ['preload/api.ts'],
  },
  // Issue 28: office mode (the office database, PostgreSQL); the services hook it in.
  'main/office/': {
    may: ['main/store/', 'storage/', 'protocol/', 'preload/ipc-contract.ts'],
    types: ['preload/api.ts', 'main/services/'],
  },
  // What the local sandbox's thread runs: the reference gateway itself (issue 15).
  'main/services/sandbox-host.ts': {
    may: ['main/client/', 'main/store/', 'protocol/', 'domain/', 'gateway/'],
    types: ['preload/api.ts'],
  },
  'main/cli/': { may: ['main/client/', 'protocol/'] },
  'main/electron/': { may: ['main/services/', 'main/store/', 'protocol/', 'domain/', 'preload/'] },
  // main/cli.ts and main/web.ts, the two shells that are not Electron's.
  'main/': { may: ['main/cli/', 'main/client/', 'main/services/', 'protocol/', 'preload/ipc-contract.ts'] },
  'preload/': { may: ['protocol/', 'domain/'] },
  'renderer/': {
    may: ['protocol/', 'domain/', 'preload/ipc-contract.ts', 'assets/networks.json'],
    types: ['preload/api.ts'],
  },
};

const ROOT = import.meta.dirname.replaceAll('\\', '/');

/** The most specific LAYERS entry `path` (relative to the root) is under, or undefined. */
function layerOf(path, folderOnly = false) {
  let best;
  for (const at of Object.keys(LAYERS).filter((at) => !folderOnly || at.endsWith('/')))
    if ((path === at || path.startsWith(at)) && (best === undefined || at.length > best.length)) best = at;
  return best;
}

const under = (path, prefixes = []) => prefixes.some((at) => path === at || path.startsWith(at));

const layersPlugin = {
  rules: {
    'allowed-imports': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = relative(ROOT, context.filename).replaceAll('\\', '/');
        const from = layerOf(file);
        if (from === undefined) return {};
        const rule = LAYERS[from];
        const check = (node, source, typeOnly) => {
          const spec = source?.value;
          if (typeof spec !== 'string' || !spec.startsWith('.')) return;
          const target = relative(ROOT, resolvePath(dirname(context.filename), spec)).replaceAll('\\', '/');
          // Its own folder: a file with an entry of its own is still one of its folder's files.
          if (layerOf(target, true) === layerOf(file, true)) return;
          if (under(target, rule.may) || (typeOnly && under(target, rule.types))) return;
          const allowed =
            [...rule.may, ...(rule.types ?? []).map((t) => `${t} (types)`)].join(', ') || 'nothing';
          context.report({
            node,
            message: `${from} may import only its own files and ${allowed}; not ${target} (eslint.config.js LAYERS, docs/ARCHITECTURE.md).`,
          });
        };
        const typeOnlyImport = (node) =>
          node.importKind === 'type' ||
          (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
        return {
          ImportDeclaration: (node) => check(node, node.source, typeOnlyImport(node)),
          ExportNamedDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
          ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
          ImportExpression: (node) => check(node, node.source, false),
        };
      },
    },
  },
};

/** Packages and Node per folder (the folders themselves are LAYERS' business, above). */
const boundaries = [
  {
    files: ['protocol/**/*.{ts,tsx}', 'domain/**/*.{ts,tsx}'],
    ...noNode('protocol/ does no I/O and runs in the renderer too.'),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ...noNode('the renderer has no Node.'),
  },
  {
    files: ['gateway/**/*.{ts,tsx}', 'storage/**/*.{ts,tsx}'],
    paths: [electron],
    patterns: [{ group: electronPatterns, message: electron.message }],
  },
  {
    files: ['main/**/*.{ts,tsx}'],
    ignores: ['main/electron/**', 'main/client/**'],
    ...mainCommon,
  },
  {
    files: ['main/client/**/*.{ts,tsx}'],
    paths: mainCommon.paths,
    patterns: [...mainCommon.patterns, clientOnly],
  },
  {
    // The contract runs in the renderer too (and in main, and the preload): no Node, no Electron.
    files: ['preload/ipc-contract.ts', 'preload/api.ts'],
    paths: [
      electron,
      ...NODE_BUILTINS.map((name) => ({ name, message: 'The IPC contract runs in the renderer too.' })),
    ],
    patterns: [
      { group: ['node:*'], message: 'The IPC contract runs in the renderer too.' },
      { group: electronPatterns, message: electron.message },
    ],
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'test-results/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Electron does not implement window.prompt, and confirm/alert block the renderer with an
    // unstyled box: the renderer asks through components/Dialog.tsx (useDialog()).
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['prompt', 'confirm', 'alert'].map((name) => ({
          name,
          message: `No ${name}() in the renderer: use useDialog() from components/Dialog.tsx.`,
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].flatMap((object) =>
          ['prompt', 'confirm', 'alert'].map((property) => ({
            object,
            property,
            message: `No ${object}.${property}() in the renderer: use useDialog() from components/Dialog.tsx.`,
          })),
        ),
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/allowed-imports': 'error' },
  },
  ...boundaries.map(({ files, ignores, paths = [], patterns = [] }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] },
  })),
);
