// Lint: typescript-eslint strict, plus the layering rules that keep the house livable:
// the renderer never imports Node or app/ (types from app/contract only, and app/common), core never
// imports Electron, app/common (pure formatting and units shared by all) imports nothing, and the
// domains of core keep their boundaries (coreDomainBoundaries).
// In the renderer, a screen never imports another screen, renderer/src/ui (what screens and the
// report share) imports neither, and the report imports no screen.
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import path from 'node:path';
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

const rendererSrc = path.join(import.meta.dirname, 'renderer', 'src');

/** Which part of the renderer a file is in: 'screens/NAME', 'ui', 'report', or null (the shell). */
function rendererArea(file) {
  const [top, name] = path.relative(rendererSrc, file).split(path.sep);
  if (top === 'screens' && name) return `screens/${name}`;
  if (top === 'ui' || top === 'report') return top;
  return null;
}

/** Why `from` may not import `to`, or null when it may. */
function crossing(from, to) {
  if (!from || !to || from === to) return null;
  if (from.startsWith('screens/') && to.startsWith('screens/'))
    return `A screen never imports another screen (${to}): move what both use to renderer/src/ui/.`;
  if (from === 'ui' && (to.startsWith('screens/') || to === 'report'))
    return `renderer/src/ui is what screens and the report share: it never imports ${to}.`;
  if (from === 'report' && to.startsWith('screens/'))
    return `The report never imports a screen (${to}): what they share lives in renderer/src/ui/.`;
  return null;
}

const rendererLayers = {
  meta: {
    type: 'problem',
    schema: [],
    docs: { description: 'Screens, ui/ and report/ stay apart.' },
  },
  create(context) {
    const from = rendererArea(context.filename);
    if (!from) return {};
    const check = (source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const to = rendererArea(path.resolve(path.dirname(context.filename), source.value));
      const message = crossing(from, to);
      if (message) context.report({ node: source, message });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

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
    plugins: { plumb: { rules: { 'renderer-layers': rendererLayers } } },
    rules: {
      'plumb/renderer-layers': 'error',
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
