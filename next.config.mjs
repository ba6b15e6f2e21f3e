// Kept minimal on purpose. unbash (ESM) and picomatch (CJS) are plain Node packages used by
// lib/policy on the server: load them from node_modules at run time instead of bundling them.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Parallel builds (e.g. two engineers' e2e runs, a benchmark) can each use their own output dir.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  typedRoutes: false,
  poweredByHeader: false,
  serverExternalPackages: ['unbash', 'picomatch'],
};

export default nextConfig;
