// Route handlers under vitest: the server's runtime (getRuntime) over a fresh embedded database in
// a temporary data directory (an empty migrated cluster copied in: db/test-support/pgdata-template.ts),
// the bootstrap admin's token, and requests as the browser or a script would send them. Call
// withRouteRuntime() at a test file's top level. Files share their worker's modules
// (vitest.config.ts), so after its file the runtime is shut down, its upstream MCP connections
// closed, the process-wide runtime forgotten and the environment put back: the next file's
// getRuntime() opens its own.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createApiToken, createUser, type Role } from '../../auth';
import { seedPgliteDir } from '../../db/test-support/pgdata-template';
import { shutdownRuntime } from '../shutdown';
import { forgetRuntime, getRuntime, type Runtime } from '../runtime';
import { loadPolicy, savePolicyVersion } from '../stores/policy-store';

export const ADMIN_TOKEN = 'route-test-admin-token-0123456789';
/** What withRouteRuntime sets in the environment, and puts back after its file. */
const ENV_KEYS = ['GATEHOUSE_DATA_DIR', 'GATEHOUSE_ADMIN_TOKEN', 'DATABASE_URL'];
const ORIGIN = 'http://127.0.0.1:3000';

export interface RouteRuntime {
  rt(): Runtime;
  /** An API token of a new user with this role. */
  tokenFor(role: Role): Promise<string>;
  /** A new user with this role, and an API token of theirs. */
  person(role: Role): Promise<{ user: Awaited<ReturnType<typeof createUser>>; token: string }>;
  /** Saves the stored policy with `rules` before its own (as an admin would add them). */
  prependRules(rules: unknown[]): Promise<void>;
}

export function withRouteRuntime(prefix = 'gatehouse-routes-'): RouteRuntime {
  let dir = '';
  let runtime: Runtime | undefined;
  let users = 0;
  let savedEnv: Record<string, string | undefined> = {};
  beforeAll(async () => {
    savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
    dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    // A migrated cluster copied in, not made by initdb: these tests are not about the first start.
    await seedPgliteDir(path.join(dir, 'db'));
    process.env.GATEHOUSE_DATA_DIR = dir;
    process.env.GATEHOUSE_ADMIN_TOKEN = ADMIN_TOKEN;
    delete process.env.DATABASE_URL;
    runtime = await getRuntime();
  }, 60_000);
  afterAll(async () => {
    if (runtime) await shutdownRuntime(runtime);
    forgetRuntime();
    for (const [key, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await rm(dir, { recursive: true, force: true });
  });
  const person = async (role: Role) => {
    const q = runtime!.q;
    const user = await createUser({ q, username: `${role}-${++users}`, role });
    return { user, token: (await createApiToken({ q, userId: user.id, name: 'test' })).token };
  };
  return {
    rt: () => runtime!,
    person,
    tokenFor: async (role) => (await person(role)).token,
    async prependRules(rules) {
      const q = runtime!.q;
      const { version, policy } = await loadPolicy(q);
      await savePolicyVersion(q, {
        policy: { ...policy, rules: [...rules, ...policy.rules] },
        expectedVersion: version,
        createdBy: 'admin',
      });
    },
  };
}

/** A request to `url` (a path), with a Bearer token and a JSON body, as a script sends it. */
export function apiRequest(
  method: string,
  url: string,
  {
    token = ADMIN_TOKEN,
    json,
    headers = {},
  }: { token?: string; json?: unknown; headers?: Record<string, string> } = {},
): Request {
  return new Request(new URL(url, ORIGIN), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}

/** The second argument Next passes a route handler. */
export const noParams = { params: Promise.resolve({} as Record<string, never>) };
