// Kept minimal on purpose. unbash (ESM) and picomatch (CJS) are plain Node packages used by
// lib/policy on the server: load them from node_modules at run time instead of bundling them.
import { SECURITY_HEADERS } from './scripts/security-headers.mjs';

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Parallel builds (e.g. two engineers' e2e runs, a benchmark) can each use their own output dir.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  typedRoutes: false,
  poweredByHeader: false,
  // `npm test` type-checks the whole project first (scripts/checks.mjs), so the build its e2e
  // suite makes skips Next's own second pass of tsc (about 45 s on 2 cores). Every other build
  // (`npm start`, `npm run build`) checks types as usual.
  typescript: { ignoreBuildErrors: process.env.GATEHOUSE_BUILD_TYPECHECKED === '1' },
  // Under `next start` and `next dev` too: Gatehouse's own server (scripts/server.mjs) sets them on
  // every response before Next sees it. The pages' Content-Security-Policy comes from proxy.ts.
  async headers() {
    return [{ source: '/:path*', headers: SECURITY_HEADERS.map(([key, value]) => ({ key, value })) }];
  },
  // No gzip in the Node process: the API's responses are small JSON (compressing {"success":true}
  // cost 0.4-1 ms per request, on the main thread the decision path shares) and SSE must not be
  // compressed anyway. A deployment that serves pages over a slow network compresses at its
  // reverse proxy (docs/DEPLOY.md).
  compress: false,
  // The other large dependencies are loaded from node_modules too: bundled, each route's server
  // chunk carried its own copy of them (about 1.6 MB of source per route, kept in memory as a
  // two-byte string because of a few non-Latin-1 characters: about 30 MB for the API routes).
  serverExternalPackages: [
    'unbash',
    'picomatch',
    '@electric-sql/pglite',
    'drizzle-orm',
    'pg',
    'ai',
    '@ai-sdk/anthropic',
    '@ai-sdk/openai',
    '@ai-sdk/openai-compatible',
    '@ai-sdk/provider',
    '@ai-sdk/provider-utils',
    'zod',
  ],
};

export default nextConfig;
