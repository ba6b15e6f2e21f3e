// Next's proxy (the file convention that replaced middleware): every page request gets a fresh
// nonce and a Content-Security-Policy naming it, on the request (Next reads the nonce from there
// and puts it on the scripts it renders) and on the response (the browser enforces it). Pages are
// rendered per request anyway (they check who is signed in), so a nonce costs no static page.
// API routes, static files and prefetches are skipped: they render no scripts. The headers every
// response carries (X-Frame-Options, nosniff, Referrer-Policy) come from scripts/server.mjs and
// next.config.mjs (scripts/security-headers.mjs).
import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy } from './scripts/security-headers.mjs';

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = contentSecurityPolicy({ nonce, dev: process.env.NODE_ENV === 'development' });
  const headers = new Headers(request.headers);
  headers.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', policy);
  return response;
}

export const config = {
  matcher: [
    {
      source: '/((?!api/|_next/static|_next/image|favicon).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
