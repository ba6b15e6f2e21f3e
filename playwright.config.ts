// End-to-end tests run against the production build (next build + next start), in Debian's
// Chromium: this project's machines cannot download Playwright's own browser builds.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
const isCI = Boolean(process.env.CI);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-'));

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  // The CI machine has 2 cores, and the server under test needs one of them.
  workers: isCI ? 1 : 2,
  reporter: isCI ? [['list'], ['html', { open: 'never' }]] : 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          // The machine has no network but the package registries: without these flags Chromium
          // keeps trying (and failing) to reach Google's services.
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npm run build && npx next start --hostname 127.0.0.1 --port ${port}`,
    // A fresh embedded database and workspace for every run, so runs never see each other's data.
    env: { GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_MODEL: 'offline', NEXT_TELEMETRY_DISABLED: '1' },
    url: baseURL,
    reuseExistingServer: !isCI,
    // A cold production build on 2 cores takes a while.
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
