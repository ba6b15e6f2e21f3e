// The origin outside clients (Claude Code's hook) should call: GATEHOUSE_PUBLIC_URL when set (the
// address behind a proxy or tunnel, which the request may not show), else the origin this request
// came to, as a browser saw it (X-Forwarded-Proto / X-Forwarded-Host from a proxy, else Host).
type HeaderBag = Pick<Headers, 'get'>;

const first = (value: string | null) => value?.split(',')[0]?.trim() || undefined;

export function publicOrigin(headers: HeaderBag, configured?: string): string {
  if (configured) return configured.replace(/\/+$/, '');
  const host = first(headers.get('x-forwarded-host')) ?? first(headers.get('host')) ?? 'localhost:3000';
  const proto = first(headers.get('x-forwarded-proto'))?.toLowerCase() === 'https' ? 'https' : 'http';
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    // A Host header that is no host: the local default, never whatever it said.
    return 'http://localhost:3000';
  }
}
