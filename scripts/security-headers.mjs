// The headers that keep Gatehouse's pages out of other sites' frames and its responses from being
// re-read as something else. One module for the three places that send them: the custom server
// (scripts/server.mjs: every response, the decision fast path and static files included),
// next.config.mjs (the same under `next start` and `next dev`) and proxy.ts (the pages' Content
// Security Policy, with a fresh nonce per request).
//
// Referrer-Policy is `same-origin`, not `no-referrer`: under `no-referrer` browsers send
// `Origin: null` on same-origin POSTs (Fetch, "serializing a request origin"), which the origin
// check refuses; `same-origin` still keeps URLs (a `/login?token=` link) from other sites.

/** Sent with every response. */
export const SECURITY_HEADERS = Object.freeze([
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'same-origin'],
]);

/** Sets SECURITY_HEADERS on a node response before anything is written. */
export function setSecurityHeaders(res) {
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
}

/**
 * The Content-Security-Policy of a page rendered with `nonce`: scripts only from this origin and
 * carrying the nonce (Next puts it on its own scripts; 'strict-dynamic' lets them load the chunks
 * they import), styles from this origin or with the nonce, nothing framed in or framing us, no
 * plugins, no <base> or form posts elsewhere. `dev` adds what `next dev` needs (eval for React's
 * error overlay, inline styles).
 */
export function contentSecurityPolicy({ nonce, dev = false }) {
  if (!/^[A-Za-z0-9+/_-]{16,}={0,2}$/.test(nonce)) throw new TypeError('A CSP nonce must be 16+ base64 characters');
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' ${dev ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
