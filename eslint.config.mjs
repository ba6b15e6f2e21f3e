// ESLint flat config. Besides the usual recommended sets, it is the memory of the architecture:
// every layer arrow of docs/ARCHITECTURE.md is an `import-x/no-restricted-paths` zone (lint/layers.mjs),
// resolved by the TypeScript resolver, so an `@/` alias, a relative path, a type import and a
// dynamic import are judged alike by the file they reach; no module may import itself back through
// any chain of imports (`import-x/no-cycle`, and `gatehouse/no-type-cycle` for chains with types).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { clientZones, layerZones } from './lint/layers.mjs';
import noTypeCycle from './lint/no-type-cycle.mjs';

const ROOT = import.meta.dirname;
const TS_FILES = ['**/*.{ts,tsx,mts,cts}'];
const CODE_FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];
// React-facing code: app/, components/, and lib/client (its hooks need the rules of hooks too).
const UI_FILES = ['{app,components,lib/client}/**/*.{ts,tsx,js,jsx,mjs}'];

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
    name: 'gatehouse/layers',
    files: CODE_FILES,
    plugins: { 'import-x': importX, gatehouse: { rules: { 'no-type-cycle': noTypeCycle } } },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: `${ROOT}/tsconfig.json`, alwaysTryTypes: true }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: [...layerZones(), ...clientZones(ROOT)] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'gatehouse/no-type-cycle': 'error',
    },
  },
);
