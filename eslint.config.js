import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // The dashboard's browser modules.
    files: ['src/dashboard/public/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'history', 'sessionStorage', 'fetch', 'performance', 'requestAnimationFrame', 'ResizeObserver', 'AbortController', 'URLSearchParams', 'Blob', 'Option', 'setTimeout'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
  },
);
