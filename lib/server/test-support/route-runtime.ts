// Route handlers under vitest: the server's runtime (getRuntime) over a fresh embedded database in
// a temporary data directory (an empty migrated cluster copied in: db/test-support/pgdata-template.ts),
// the bootstrap admin's token, and requests as the browser or a script would send them. Call
// withRouteRuntime() at a test file's top level; each file gets its own process.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createApiToken, createUser, type Role } from '../../auth';
import { seedPgliteDir } from '../../db/test-support/pgdata-template';
import { shutdownRuntime } from '../shutdown';
import { getRuntime, type Runtime } from '../runtime';

export const ADMIN_TOKEN = 'route-test-admin-token-0123456789';
const ORIGIN = 'http://127.0.0.1:3000';

export interface RouteRuntime {
  rt(): Runtime;
  /** An API token of a new user with this role. */
  tokenFor(role: Role): Promise<string>;
}

export function withRouteRuntime(prefix = 'gatehouse-routes-'): RouteRuntime {
  let dir = '';
  let runtime: Runtime | undefined;
  let users = 0;
  beforeAll(async () => {
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
    await rm(dir, { recursive: true, force: true });
  });
  return {
    rt: () => runtime!,
    async tokenFor(role) {
      const q = runtime!.q;
      const user = await createUser({ q, username: `${role}-${++users}`, role });
      return (await createApiToken({ q, userId: user.id, name: 'test' })).token;
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
