// End-to-end tests run against the production build (next build + next start), in Debian's
// Chromium: this project's machines cannot download Playwright's own browser builds.
// Three servers from the same build: the default one on the embedded database (PGlite); a second
// one on the embedded database for the UI specs (project `chromium-ui`), so they run beside the
// rest, one spec at a time on each server; and one on PostgreSQL (a fresh database from
// scripts/ensure-postgres.mjs) that the API specs run against a second time as the `postgres` project.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminAuthHeaders, E2E_ADMIN_TOKEN } from './e2e/support/auth';
import { seededDataDir } from './e2e/support/data-dir';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// The PostgreSQL server sits next to the default one, and its database is named after its port,
// so e2e runs on other ports (E2E_PORT) never share, or drop, each other's database.
const pgPort = Number(process.env.E2E_PG_PORT ?? port + 1);
const pgBaseURL = `http://127.0.0.1:${pgPort}`;
const uiPort = Number(process.env.E2E_UI_PORT ?? port + 2);
const uiBaseURL = `http://127.0.0.1:${uiPort}`;
const pgDatabaseUrl =
  process.env.E2E_DATABASE_URL ||
  `postgres://gatehouse:gatehouse@127.0.0.1:5432/${pgPort === 3101 ? 'gatehouse_e2e' : `gatehouse_e2e_${pgPort}`}`;
const isCI = Boolean(process.env.CI);
/**
 * A temporary directory made once per run: Playwright's runner loads this file first and makes it;
 * its workers load the file again with the runner's environment, so they reuse it instead of
 * leaving empty ones behind.
 */
const runDir = (key: string, prefix: string) => (process.env[key] ??= mkdtempSync(path.join(os.tmpdir(), prefix)));
const dataDir = runDir('E2E_DATA_DIR', 'gatehouse-e2e-');
// The UI specs' server is not about a first start (the default one is): its embedded database is
// copied from the migrated template (e2e/support/data-dir.ts), about 6 s less before the first spec.
process.env.E2E_UI_DATA_DIR ??= await seededDataDir('gatehouse-e2e-ui-');

// The HTTP API specs, run on both databases. UI specs (e2e/ui-*.spec.ts, e2e/ui/) are not listed
// on purpose: they run once, in the default project.
const API_SPECS = ['api-chat.spec.ts', 'api-flows.spec.ts', 'api-admin.spec.ts', 'api-malformed.spec.ts'];
// The UI specs that only use their project's server run on a server of their own, beside the
// other specs (the `chromium-ui` project). ui-servers starts a server on a port of its own, as
// the restart and instance specs do: those stay in the default project, one at a time. So does
// ui-quorum-edit-shown, which needs only a server: it balances the two lanes (about 490 s each).
const UI_SPECS = /\/ui-(?!servers\.|quorum-edit-shown\.)[^/]*\.spec\.ts$/;

// Under CI the PostgreSQL project always runs, so a PostgreSQL that cannot start fails the run.
// Locally it runs when a PostgreSQL can be had (E2E_POSTGRES=0 turns it off).
const withPostgres =
  isCI ||
  (process.env.E2E_POSTGRES !== '0' && (Boolean(process.env.E2E_DATABASE_URL) || existsSync('/usr/bin/pg_lsclusters')));
if (!withPostgres && !process.env.TEST_WORKER_INDEX) {
  console.warn(
    'e2e: the postgres project is off (no local PostgreSQL, or E2E_POSTGRES=0); set E2E_DATABASE_URL to use another server.',
  );
}

// Short heartbeats, so a spec can see them on a paused run's stream without waiting 15 s.
// The suite is signed in as the bootstrap admin through GATEHOUSE_ADMIN_TOKEN (e2e/support/auth.ts).
// GATEHOUSE_TRUSTED_PROXIES=1: the specs stand in for a reverse proxy, giving their requests
// addresses of their own (X-Forwarded-For) so the login limits of one spec do not reach another's.
// The per-user caps on runs going and calls waiting are raised: most specs start runs as the one
// admin, and the runs they leave paused would add up to the caps over the suite (the caps
// themselves are tested through the route handlers: app/api/chat/held-per-user.test.ts).
const serverEnv = {
  GATEHOUSE_MODEL: 'offline',
  GATEHOUSE_SSE_HEARTBEAT_MS: '1000',
  GATEHOUSE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
  GATEHOUSE_TRUSTED_PROXIES: '1',
  GATEHOUSE_MAX_RUNS_PER_USER: '100000',
  GATEHOUSE_MAX_WAITING_PER_USER: '100000',
  NEXT_TELEMETRY_DISABLED: '1',
};

const chromium = {
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
};

// Each project runs one spec at a time on its own server (its specs change that server's policy,
// users and settings); the projects run side by side.
const projects: PlaywrightTestConfig['projects'] = [
  // `metadata.database` is what GET /api/health of the project's server reports.
  { name: 'chromium', use: chromium, testIgnore: UI_SPECS, workers: 1, metadata: { database: 'pglite' } },
  {
    name: 'chromium-ui',
    use: { ...chromium, baseURL: uiBaseURL },
    testMatch: UI_SPECS,
    workers: 1,
    metadata: { database: 'pglite' },
  },
];
// Every e2e server keeps an idle connection for 65 s (node's default is 5 s, a load balancer's
// usual idle timeout is 60): a worker's browser context, and with it `page.request`, lives across
// its tests, and a request sent on a kept-alive connection just as the server closes it fails with
// ECONNRESET in Playwright's API client (browsers retry it). Gaps of about 5 s between two API
// requests of one context are common; gaps of about 65 s are not.
const serve = 'sh scripts/serve.sh --keepAliveTimeout 65000';
const webServer: NonNullable<PlaywrightTestConfig['webServer']> = [
  {
    // scripts/serve.sh: `next start` with the node flags and malloc setting of `npm start`.
    // GATEHOUSE_BUILD_TYPECHECKED: the types were checked before the suite (npm test), so the build
    // skips Next's second pass of tsc (next.config.mjs).
    command: `GATEHOUSE_BUILD_TYPECHECKED=1 npm run build && ${serve} --hostname 127.0.0.1 --port ${port}`,
    // A fresh embedded database and workspace for every run, so runs never see each other's data.
    env: { ...serverEnv, GATEHOUSE_DATA_DIR: dataDir },
    url: baseURL,
    reuseExistingServer: !isCI,
    // A cold production build on 2 cores takes a while.
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
  {
    // The UI specs' server: the same build (started once the first one answers), a database and
    // workspace of its own.
    command: `${serve} --hostname 127.0.0.1 --port ${uiPort}`,
    env: { ...serverEnv, GATEHOUSE_DATA_DIR: process.env.E2E_UI_DATA_DIR },
    url: uiBaseURL,
    reuseExistingServer: !isCI,
    timeout: 90_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
];

if (withPostgres) {
  projects.push({
    name: 'postgres',
    testMatch: API_SPECS,
    use: { ...chromium, baseURL: pgBaseURL },
    workers: 1,
    metadata: { database: 'postgres' },
  });
  webServer.push({
    // No build here: Playwright starts the web servers one after the other, each once the previous
    // one answers, so the build above is complete before this `next start` reads it.
    command: `node scripts/ensure-postgres.mjs && ${serve} --hostname 127.0.0.1 --port ${pgPort}`,
    // ensure-postgres drops and recreates this database, so every run starts empty; the workspace
    // is a directory of its own.
    env: {
      ...serverEnv,
      E2E_DATABASE_URL: pgDatabaseUrl,
      DATABASE_URL: pgDatabaseUrl,
      GATEHOUSE_DATA_DIR: runDir('E2E_PG_DATA_DIR', 'gatehouse-e2e-pg-'),
    },
    // Ready when the database answers too (health is 503 until then).
    url: `${pgBaseURL}/api/health`,
    reuseExistingServer: !isCI,
    timeout: 90_000,
    stdout: 'pipe',
    stderr: 'pipe',
  });
}

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  // Two specs at a time, each project's one after another (its `workers: 1`): on a 2-core machine
  // the browser, the servers and the specs' own processes leave about a third of the CPU idle
  // with one spec at a time.
  workers: 2,
  reporter: isCI ? [['list'], ['html', { open: 'never' }]] : 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    // Every page and API request of the default fixtures is the admin's (specs about signing in
    // make their own contexts, which do not get this).
    extraHTTPHeaders: adminAuthHeaders(),
    // Under CI a failed test runs again (retries: 1) with a trace; its first attempt records none.
    // Recording one for every test (DOM snapshots and a screencast per action) cost about a tenth
    // of the suite's time, for the few tests that fail. Locally, with no retry, a failure keeps its trace.
    trace: isCI ? 'on-first-retry' : 'retain-on-failure',
    // One browser context per worker, reset between tests (cookies, storage, extra pages, routes,
    // init scripts, emulation: Playwright's reuseContext) instead of a new one per test: a new
    // context starts a renderer process and loads the app's scripts cold, about 0.8 s of a 2-core
    // machine per test, a fifth of the UI specs' time. What the reset leaves (a permission granted,
    // setOffline, setExtraHTTPHeaders) the spec that changes it undoes (ui-approvals-inbox.spec.ts).
    // Specs that need a context of their own (another user, signed out) make one with browser.newContext.
    reuseContext: true,
    screenshot: 'only-on-failure',
  },
  projects,
  webServer,
});
