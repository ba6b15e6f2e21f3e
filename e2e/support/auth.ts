// The e2e suite runs signed in as the bootstrap admin: the web servers get GATEHOUSE_ADMIN_TOKEN,
// and every page and API request of the default fixtures carries it as a Bearer token (set in
// playwright.config.ts). Specs about signing in create their own contexts without it.
export const E2E_ADMIN_TOKEN = (process.env.E2E_ADMIN_TOKEN ??= 'e2e-admin-token-0123456789abcdef');

export function adminAuthHeaders(): Record<string, string> {
  return { Authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
}

/** Adds the admin's Authorization header to a fetch init (for raw fetch, e.g. the SSE reader), unless one is set. */
export function withAdminAuth(init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${E2E_ADMIN_TOKEN}`);
  return { ...init, headers };
}
