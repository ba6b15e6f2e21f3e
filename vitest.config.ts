// Unit tests: pure Node, no browser (examples/ tests run the examples as programs). e2e/ belongs to Playwright; bench/ prints figures, and only
// the pure parts of its tooling have tests (bench/**/*.test.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./', import.meta.url)) },
  },
  test: {
    environment: 'node',
    include: [
      'lib/**/*.test.ts',
      'app/**/*.test.ts',
      'lint/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
      'examples/**/*.test.ts',
    ],
    exclude: ['node_modules/**', '.next/**', 'e2e/**'],
    // One worker more than the 2 CPUs of the machines it runs on: most files spend their time
    // waiting (local servers, PostgreSQL, child processes, real-time deadlines), and a third worker
    // fills those waits (the whole run 4.5 min instead of 7.7 on 2 cores, every test passing).
    maxWorkers: 3,
    // Guards against a hang, not timings: on a loaded 2-core host a PGlite start or ESLint's first
    // lint takes seconds, and vitest's defaults (5 s a test, 10 s a hook) failed such set-ups.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
