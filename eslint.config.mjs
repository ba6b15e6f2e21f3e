// ESLint flat config. Besides the usual recommended sets, it enforces the layer boundaries of
// docs/ARCHITECTURE.md with no-restricted-imports, so they hold without anyone remembering them.
// Note: in flat config a later block that sets a rule replaces its options, so every boundary
// block below carries the full list of patterns for its files (built by boundaryRule).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TS_FILES = ['**/*.{ts,tsx,mts,cts}'];
const LIB_FILES = ['lib/**/*.{ts,tsx,mts,cts,js,mjs}'];
// React-facing code: app/, components/, and lib/client (its hooks need the rules of hooks too).
const UI_FILES = ['{app,components,lib/client}/**/*.{ts,tsx,js,jsx,mjs}'];

const noNext = {
  regex: '^next(/.*)?$',
  message: 'lib/ must not depend on Next.js: it has to work from a plain Node script.',
};
const noReact = {
  regex: '^react(-dom)?(/.*)?$',
  message: 'Only lib/client (browser side) may import React; the rest of lib/ stays UI-free.',
};
const noUiLayers = {
  regex: '^(@/|(\\.\\./)+)(app|components)(/.*)?$',
  message: 'lib/ must not import from app/ or components/: imports only point down.',
};
const noOtherProjectLayer = {
  regex: '^@/(?!lib/policy(/|$))',
  message: 'lib/policy is pure: it imports nothing from the rest of the project (only lib/policy and npm packages).',
};

const noContractDependency = [
  {
    regex: '^@/(?!lib/(policy|contract)(/|$))',
    message: 'lib/contract holds what crosses a boundary: it imports only lib/policy (its schemas) and zod.',
  },
  {
    regex: '^(\\./)?\\.\\./(?!policy(/|$))',
    message: 'lib/contract imports only lib/policy (its schemas) and zod.',
  },
  {
    regex: '^((\\./)?\\.\\./|@/lib/)policy(/index)?$',
    message: "lib/contract imports lib/policy's schemas (lib/policy/types), never the engine: the browser bundle gets it.",
  },
];

const boundaryRule = (...patterns) => ['error', { patterns }];

// A relative import escapes lib/policy when it climbs more levels than the file is deep below it.
// Flat config cannot resolve paths, so one block per depth carries the matching regex.
const POLICY_MAX_DEPTH = 6;
const policyDepthBlocks = Array.from({ length: POLICY_MAX_DEPTH + 1 }, (_, depth) => ({
  name: `gatehouse/boundaries/lib-policy-depth-${depth}`,
  files: [`lib/policy/${'*/'.repeat(depth)}*.{ts,tsx,mts,cts,js,mjs}`],
  rules: {
    'no-restricted-imports': boundaryRule(noNext, noReact, noUiLayers, noOtherProjectLayer, {
      regex: `^(\\./)?(\\.\\./){${depth}}\\.\\.(/|$)`,
      message: 'lib/policy is pure: a relative import must not leave lib/policy.',
    }),
  },
}));

export default defineConfig(
  {
    name: 'gatehouse/ignores',
    ignores: [
      '.next/**',
      '.next-*/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'blob-report/**',
      'coverage/**',
      '.data/**',
      'out/**',
      'next-env.d.ts',
    ],
  },
  { ...js.configs.recommended, name: 'gatehouse/js-recommended' },
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: TS_FILES })),
  ...nextCoreWebVitals.map((config) => (config.files ? { ...config, files: UI_FILES } : config)),
  {
    name: 'gatehouse/node-scripts',
    files: ['**/*.{js,mjs,cjs}', '*.config.{ts,mjs}', 'e2e/**/*.ts', 'scripts/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    name: 'gatehouse/ts',
    files: TS_FILES,
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    name: 'gatehouse/boundaries/lib',
    files: LIB_FILES,
    rules: { 'no-restricted-imports': boundaryRule(noNext, noReact, noUiLayers) },
  },
  {
    name: 'gatehouse/boundaries/lib-client',
    files: ['lib/client/**/*.{ts,tsx,mts,cts,js,mjs}'],
    rules: { 'no-restricted-imports': boundaryRule(noNext, noUiLayers) },
  },
  {
    name: 'gatehouse/boundaries/lib-contract',
    files: ['lib/contract/*.{ts,tsx,mts,cts,js,mjs}'],
    rules: { 'no-restricted-imports': boundaryRule(noNext, noReact, noUiLayers, ...noContractDependency) },
  },
  ...policyDepthBlocks,
);
