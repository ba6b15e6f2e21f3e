// The signed-in user as server state: who am I (null when nobody is), sign in with a password or a
// one-time link, sign out (this session, or every session of mine). Also the pure helpers of the login page: where to go after signing in,
// and the words for a refused sign-in.
'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Me } from '@/lib/contract';
import { ApiError, apiFetch } from './api';

export const authKeys = {
  me: ['auth', 'me'] as const,
};

/** The signed-in user, or null when nobody is (401). Other failures throw. */
export async function fetchMe(): Promise<Me | null> {
  try {
    return await apiFetch<Me>('/api/auth/me', { cache: 'no-store' });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const login = (input: { username: string; password: string }) =>
  apiFetch<{ user: Me }>('/api/auth/login', { method: 'POST', json: input });
export const loginWithToken = (token: string) =>
  apiFetch<{ user: Me }>('/api/auth/login-token', { method: 'POST', json: { token } });
export const logout = () => apiFetch<{ success: true }>('/api/auth/logout', { method: 'POST' });
/** Changes the caller's own password; this session stays, the caller's others end. */
export const changeOwnPassword = (input: { currentPassword: string; password: string }) =>
  apiFetch<{ user: unknown }>('/api/auth/password', { method: 'POST', json: input });
export const logoutEverywhere = () => apiFetch<{ ended: number }>('/api/auth/sessions', { method: 'DELETE' });

export function useMe() {
  return useQuery({ queryKey: authKeys.me, queryFn: fetchMe, staleTime: 30_000 });
}

/** Signing in or out changes what every query may see: start from a clean cache. */
function useSessionChange() {
  const client = useQueryClient();
  return (me: Me | null) => {
    client.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.me[0] });
    client.setQueryData(authKeys.me, me);
  };
}

export function useLogin() {
  const changed = useSessionChange();
  return useMutation({ mutationFn: login, onSuccess: ({ user }) => changed(user) });
}

export function useLoginWithToken() {
  const changed = useSessionChange();
  return useMutation({ mutationFn: loginWithToken, onSuccess: ({ user }) => changed(user) });
}

export function useLogout() {
  const changed = useSessionChange();
  return useMutation({ mutationFn: logout, onSuccess: () => changed(null) });
}

export function useChangeOwnPassword() {
  return useMutation({ mutationFn: changeOwnPassword });
}

export function useLogoutEverywhere() {
  const changed = useSessionChange();
  return useMutation({ mutationFn: logoutEverywhere, onSuccess: () => changed(null) });
}

/**
 * Where to go after signing in: `next` when it is a path on this site, else `/`. Refuses absolute
 * and protocol-relative URLs (`//evil`, `/\evil`, `https://...`), so the login page is no open redirect.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex -- control characters make browsers re-interpret the URL
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return '/';
  const base = 'http://gatehouse.invalid';
  const url = new URL(next, base);
  // Dot segments can collapse into `//host` ("/a/../..//evil"): judge the normalized path too.
  if (url.origin !== base || url.pathname.startsWith('//') || url.pathname === '/login') return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** "45 s", "5 min", "1 h 5 min": a wait as a person reads it. */
export function formatWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** The message the login page shows for a refused sign-in. */
export function loginErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Could not reach the server. Check the connection and try again.';
  switch (error.code) {
    case 'rate_limited:login': {
      const wait = Number(error.body.retryAfterS);
      return `Too many sign-in attempts. Try again in ${Number.isFinite(wait) && wait > 0 ? formatWait(wait) : 'a few minutes'}.`;
    }
    case 'unauthorized:credentials':
      return 'Wrong username or password.';
    case 'unauthorized:disabled':
      return 'This account is disabled. Ask an admin to enable it.';
    case 'unauthorized:login_token':
      return 'This sign-in link is invalid, expired or already used. Ask an admin for a new one, or sign in with your password.';
    case 'forbidden:origin':
      return 'The sign-in was refused because it did not come from this site. Reload the page and try again.';
  }
  return error.message;
}
