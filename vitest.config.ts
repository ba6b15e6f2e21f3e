// Unit tests: pure Node, no browser (examples/ tests run the examples as programs). e2e/ belongs to Playwright; bench/ prints figures, and only
// the pure parts of its tooling have tests (bench/**/*.test.ts).
//
// Two projects, one run. Most files share their worker's modules (`isolate: false`): loading
// PGlite, the MCP SDK, zod and the app's modules again for every file was half of the run's CPU.
// A file that changes what is process-wide (the server's runtime singleton, the environment,
// timers, globals, spies, module mocks) runs in a fresh module graph of its own (`isolated`); it
// is picked out here by what its source contains (lint/test-isolation.ts), so a new such file
// needs no list to be kept.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { isolatedTestFiles } from './lint/test-isolation';

const ROOT = fileURLToPath(new URL('./', import.meta.url));
const INCLUDE = [
  'lib/**/*.test.ts',
  'app/**/*.test.ts',
  'lint/**/*.test.ts',
  'scripts/**/*.test.ts',
  'bench/**/*.test.ts',
  'examples/**/*.test.ts',
];
const EXCLUDE = ['node_modules/**', '.next/**', 'e2e/**'];
const isolated = isolatedTestFiles(ROOT, ['lib', 'app', 'lint', 'scripts', 'bench', 'examples']);

export default defineConfig({
  resolve: {
    alias: { '@': ROOT },
  },
  test: {
    environment: 'node',
    // One worker more than the 2 CPUs of the machines it runs on: many files spend part of their
    // time waiting (local servers, PostgreSQL, child processes, real-time deadlines), and a third
    // worker fills those waits.
    maxWorkers: 3,
    // Guards against a hang, not timings: on a loaded 2-core host a PGlite start or ESLint's first
    // lint takes seconds, and vitest's defaults (5 s a test, 10 s a hook) failed such set-ups.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: INCLUDE, exclude: [...EXCLUDE, ...isolated], isolate: false },
      },
      {
        extends: true,
        test: { name: 'isolated', include: isolated.length > 0 ? isolated : ['(none)'], exclude: EXCLUDE },
      },
    ],
  },
});
