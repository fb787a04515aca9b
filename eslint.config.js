import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Browser globals a page's modules may use, and no others (a typo is then an undefined name). */
const readonlyGlobals = (names) => Object.fromEntries(names.map((name) => [name, 'readonly']));
/** What every page of the service's own uses (dashboard, inbox): the window, its address and storage, fetch, timers. */
const PAGE_GLOBALS = [
  'window',
  'document',
  'location',
  'history',
  'sessionStorage',
  'fetch',
  'requestAnimationFrame',
  'AbortController',
  'Blob',
  'Option',
  'setTimeout',
];

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', '.bench-data/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Layering (docs/DEVELOPING.md): services hold the rules and repositories the SQL, callable from the
    // HTTP routes, the CLI and the jobs alike, so neither may depend on the web framework.
    files: ['src/**/service.ts', 'src/**/repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'fastify', message: 'Services and repositories never import Fastify: take plain arguments and deps, throw ApiError.' },
          ],
          patterns: [{ group: ['@fastify/*'], message: 'Services and repositories never import Fastify plugins.' }],
        },
      ],
    },
  },
  {
    // The dashboard's browser modules.
    files: ['src/dashboard/public/**/*.js'],
    languageOptions: {
      globals: readonlyGlobals([...PAGE_GLOBALS, 'performance', 'ResizeObserver', 'URLSearchParams']),
    },
  },
  {
    // The inbox's browser modules.
    files: ['src/inbox/public/**/*.js'],
    languageOptions: {
      globals: readonlyGlobals([
        ...PAGE_GLOBALS,
        'localStorage',
        'TextDecoder',
        'URL',
        'Node',
        'DOMParser',
        'Notification',
        'AudioContext',
        'clearTimeout',
        'setInterval',
        'clearInterval',
      ]),
    },
  },
  {
    // The chat widget's script (a classic script run on other sites' pages).
    files: ['src/widget/public/**/*.js'],
    languageOptions: {
      globals: readonlyGlobals([
        'window',
        'document',
        'localStorage',
        'fetch',
        'performance',
        'AbortController',
        'Blob',
        'CSSStyleSheet',
        'TextDecoder',
        'setTimeout',
        'clearTimeout',
        'setInterval',
      ]),
    },
  },
);
