// Next.js calls register() once when a server process starts: open the database and resume the
// runs a previous process left paused, so their deadlines and decisions keep working; and on
// SIGTERM/SIGINT hand the runs executing here over before the process exits (lib/server/shutdown.ts).
// Once the runtime is up (or its first start failed: every request tries again) it installs the
// decision route's fast path, which the custom server (scripts/server.mjs) consults before Next's router.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { getRuntime } = await import('./lib/server/runtime');
  const { installShutdown } = await import('./lib/server/shutdown');
  installShutdown({ runtime: getRuntime, manual: Boolean(process.env.NEXT_MANUAL_SIG_HANDLE) });
  try {
    await getRuntime();
  } catch (error) {
    // Each request tries again (getRuntime), the fast path's as much as Next's route.
    console.error('[gatehouse] startup failed:', (error as Error).message);
  }
  const { installFastRoutes } = await import('./lib/server/routes/fast-routes');
  installFastRoutes();
}
