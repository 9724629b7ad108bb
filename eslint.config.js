// ESLint flat config. Besides style and correctness, it enforces the layout boundaries of
// docs/ARCHITECTURE.md with import restrictions per folder (test/lint/boundaries.test.ts proves
// that a violation fails).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

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

/** What every folder of main/ except main/electron/ may not import. */
const mainCommon = {
  paths: [electron],
  patterns: [
    { group: ['**/renderer/**'], message: 'main/ talks to the renderer only through preload/api.ts.' },
    { group: electronPatterns, message: electron.message },
  ],
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

/** Layout boundaries: which folders each side may not import from. */
const boundaries = [
  {
    files: ['protocol/**/*.{ts,tsx}'],
    ...noNode('protocol/ does no I/O and runs in the renderer too.'),
    patterns: [
      {
        group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/gateway/**'],
        message: 'protocol/ imports nothing of main/, renderer/, preload/ or gateway/.',
      },
      ...noNode('protocol/ does no I/O and runs in the renderer too.').patterns,
    ],
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ...noNode('the renderer has no Node.'),
    patterns: [
      {
        group: ['**/main/**', '**/gateway/**'],
        message: 'renderer/ imports only protocol/, preload/ipc-contract.ts and the types of preload/api.ts.',
      },
      {
        group: ['**/preload/**', '!**/preload/api.ts', '!**/preload/ipc-contract.ts'],
        message: 'renderer/ imports only preload/ipc-contract.ts and the types of preload/api.ts.',
      },
      {
        group: ['**/preload/api.ts'],
        allowTypeImports: true,
        message: 'renderer/ imports only the types of preload/api.ts.',
      },
      ...noNode('the renderer has no Node.').patterns,
    ],
  },
  {
    files: ['gateway/**/*.{ts,tsx}'],
    paths: [electron],
    patterns: [
      {
        group: ['**/main/**', '**/renderer/**', '**/preload/**'],
        message: 'gateway/ uses protocol/ and storage/ only; it is a separate server.',
      },
      { group: electronPatterns, message: electron.message },
    ],
  },
  {
    files: ['main/**/*.{ts,tsx}'],
    ignores: ['main/electron/**', 'main/client/**', 'main/store/**', 'main/services/**'],
    ...mainCommon,
  },
  {
    files: ['main/client/**/*.{ts,tsx}'],
    paths: mainCommon.paths,
    patterns: [...mainCommon.patterns, clientOnly],
  },
  {
    files: ['main/store/**/*.{ts,tsx}'],
    paths: mainCommon.paths,
    patterns: [
      ...mainCommon.patterns,
      {
        // any depth below main/store/, and a path through main/ (regex: the specifier is not resolved)
        regex: '^(?:\\.\\./)+(?:main/)?(?:services|client|electron)(?:/|$)',
        message:
          'main/store/ is persistence only: it imports neither main/services/, main/client/ nor main/electron/.',
      },
    ],
  },
  {
    files: ['main/services/**/*.{ts,tsx}'],
    paths: mainCommon.paths,
    patterns: [
      ...mainCommon.patterns,
      {
        regex: '^(?:\\.\\./)+(?:main/)?electron(?:/|$)',
        message:
          'main/services/ runs in both shells: the Electron shell (main/electron/) imports it, not the reverse.',
      },
    ],
  },
  {
    files: ['preload/**/*.{ts,tsx}'],
    patterns: [
      { group: ['**/main/**', '**/renderer/**', '**/gateway/**'], message: 'preload/ is only the bridge.' },
    ],
  },
  {
    // The contract runs in the renderer too (and in main, and the preload): no Node, no Electron.
    files: ['preload/ipc-contract.ts', 'preload/api.ts'],
    paths: [
      electron,
      ...NODE_BUILTINS.map((name) => ({ name, message: 'The IPC contract runs in the renderer too.' })),
    ],
    patterns: [
      { group: ['**/main/**', '**/renderer/**', '**/gateway/**'], message: 'preload/ is only the bridge.' },
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
  ...boundaries.map(({ files, ignores, paths = [], patterns = [] }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] },
  })),
);
