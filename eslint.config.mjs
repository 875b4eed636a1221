// Lint: typescript-eslint strict, plus the layering rules that keep the house livable:
// the renderer never imports Node or app/ (types from app/contract only, and app/common), core never
// imports Electron, app/common (pure formatting and units shared by all) imports nothing, and the
// domains of core keep their boundaries (coreDomainBoundaries).
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** What no file of app/core may import. */
const coreRestrictions = {
  paths: [
    {
      name: 'electron',
      message: 'Only app/desktop may import Electron; core stays Electron-free.',
    },
  ],
  patterns: [
    {
      regex: String.raw`(^|/)(renderer|desktop|web|cli)/`,
      message: 'app/core never imports a front door (desktop, web, cli) or the renderer.',
    },
  ],
};

/**
 * The domains of app/core that never import another: one row each. What they share comes from
 * the app context (app/core/context.ts), which the front doors build.
 */
const coreDomainBoundaries = [
  { domain: 'planner', never: 'bench', why: 'saved results reach it through the app context' },
  { domain: 'space', never: 'bench', why: 'its folders come from paths.ts and the app context' },
];

export default tseslint.config(
  { ignores: ['dist/', 'native/build/', 'node_modules/', 'test-artifacts/', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        Response: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        NodeJS: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        WebSocket: 'readonly',
        Location: 'readonly',
      },
    },
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'The renderer runs in a browser: no Node built-ins.',
          })),
          patterns: [
            {
              regex: String.raw`(^|/)app/contract/`,
              allowTypeImports: true,
              message: 'The renderer may import only types from app/contract.',
            },
            {
              regex: String.raw`(^|/)app/(?!contract/|common/)`,
              message:
                'The renderer talks to Plumb through window.plumb only; it never imports app/ (but app/common).',
            },
            { group: ['electron'], message: 'The renderer never imports Electron.' },
          ],
        },
      ],
    },
  },
  {
    files: ['app/core/**/*.ts', 'app/contract/**/*.ts', 'app/cli/**/*.ts', 'app/web/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'Only app/desktop may import Electron; core stays Electron-free.',
            },
          ],
          patterns: [
            {
              regex: String.raw`(^|/)(renderer|app/desktop)/`,
              message: 'Imports flow downwards: front doors → core → native.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/core/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', coreRestrictions] },
  },
  {
    // fio's os/os-*.h: what differs per OS lives in app/core/os/, one module per OS.
    files: ['app/core/**/*.ts'],
    ignores: ['app/core/os/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...[
          ['process', 'platform'],
          ['os', 'platform'],
        ].map(([object, property]) => ({
          object,
          property,
          message:
            'What differs per OS belongs to its OS module: use hostOs or osModule(platform) from app/core/os/.',
        })),
      ],
    },
  },
  ...coreDomainBoundaries.map(({ domain, never, why }) => ({
    files: [`app/core/${domain}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          ...coreRestrictions,
          patterns: [
            ...coreRestrictions.patterns,
            {
              regex: String.raw`(^|/)${never}/`,
              message: `app/core/${domain} never imports app/core/${never}: ${why}.`,
            },
          ],
        },
      ],
    },
  })),
  {
    // VS Code's common/: every process may import it, so it imports nothing (no Node, zod, React).
    files: ['app/common/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(?!\./[^/]+$)`,
              message:
                'app/common imports nothing but its own files: no Node, no libraries, no app/.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'window', 'document', 'require'].map((name) => ({
          name,
          message: 'app/common runs everywhere: no Node or browser globals.',
        })),
      ],
    },
  },
);
