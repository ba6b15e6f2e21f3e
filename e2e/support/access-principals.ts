// Who calls the API in the access specs: anonymous, a `user`, an `approver` (both signed in with a
// password, carrying the session cookie) and the bootstrap `admin` (Bearer token). Every request
// names its credentials explicitly, so nothing leaks between principals through a cookie jar or
// the suite's default admin header.
import { expect, type APIRequestContext, type APIResponse, type PlaywrightWorkerArgs } from '@playwright/test';
import type { Role } from '../../lib/contract';
import { adminAuthHeaders } from './auth';
import { SseReader } from './sse';

export const PRINCIPALS = ['anonymous', 'user', 'approver', 'admin'] as const;
export type PrincipalName = (typeof PRINCIPALS)[number];

export interface Account {
  id: string;
  username: string;
  role: Role;
}

export interface Principal {
  name: string;
  account?: Account;
  /** A session cookie or a Bearer token; empty for anonymous. */
  credentials: Record<string, string>;
  api: APIRequestContext;
  baseURL: string;
}

export interface SendOptions {
  data?: unknown;
  headers?: Record<string, string>;
  /** The Origin header: the server's own by default (a same-origin page); null sends none. */
  origin?: string | null;
}

/** A random client address: the login throttle counts per address, and the shared server's budget is everyone's. */
export const randomClientIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

export const randomSuffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** A context without any credentials: the config's admin header is not inherited by contexts made here. */
async function bareContext(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
): Promise<APIRequestContext> {
  return playwright.request.newContext({ baseURL, extraHTTPHeaders: {} });
}

export function headersFor(
  who: Principal,
  { headers, origin }: Omit<SendOptions, 'data'> = {},
): Record<string, string> {
  const own = origin === undefined ? new URL(who.baseURL).origin : origin;
  return { ...(own === null ? {} : { Origin: own }), ...who.credentials, ...headers };
}

export function send(who: Principal, method: string, path: string, options: SendOptions = {}): Promise<APIResponse> {
  return who.api.fetch(path, { method, data: options.data, headers: headersFor(who, options) });
}

export async function anonymous(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string): Promise<Principal> {
  return { name: 'anonymous', credentials: {}, api: await bareContext(playwright, baseURL), baseURL };
}

export async function adminPrincipal(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
): Promise<Principal> {
  const who: Principal = {
    name: 'admin',
    credentials: adminAuthHeaders(),
    api: await bareContext(playwright, baseURL),
    baseURL,
  };
  who.account = await me(who);
  expect(who.account.role).toBe('admin');
  return who;
}

/** Creates a user as the admin (POST /api/users) and returns the new account. */
export async function createUser(admin: Principal, username: string, role: Role, password: string): Promise<Account> {
  const response = await send(admin, 'POST', '/api/users', { data: { username, role, password } });
  expect(response.status(), await response.text()).toBe(201);
  const { user } = (await response.json()) as { user: Account };
  return { id: user.id, username: user.username, role: user.role };
}

/** Signs in with POST /api/auth/login and keeps the session cookie it sets as the principal's credentials. */
export async function signIn(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
  username: string,
  password: string,
): Promise<Principal> {
  const login = await bareContext(playwright, baseURL);
  const response = await login.post('/api/auth/login', {
    data: { username, password },
    headers: { Origin: new URL(baseURL).origin, 'X-Forwarded-For': randomClientIp() },
  });
  expect(response.status(), await response.text()).toBe(200);
  const cookie = (await login.storageState()).cookies.find((c) => c.name === 'gh_session');
  await login.dispose();
  expect(cookie, 'the login answer sets gh_session').toBeDefined();
  const who: Principal = {
    name: username,
    credentials: { Cookie: `gh_session=${cookie!.value}` },
    api: await bareContext(playwright, baseURL),
    baseURL,
  };
  who.account = await me(who);
  expect(who.account.username).toBe(username);
  return who;
}

export async function me(who: Principal): Promise<Account> {
  const response = await send(who, 'GET', '/api/auth/me');
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Account;
}

/** Opens an SSE request as this principal (raw fetch: the stream is read while the test acts). */
export async function openStream(
  who: Principal,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<{ response: Response; events: SseReader }> {
  const headers: Record<string, string> = headersFor(who);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(new URL(path, who.baseURL), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.body) throw new Error(`no body (status ${response.status})`);
  return { response, events: new SseReader(response.body.getReader()) };
}

export async function errorCode(response: APIResponse): Promise<string | undefined> {
  const text = await response.text();
  try {
    return (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
