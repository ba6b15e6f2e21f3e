// Next.js calls register() once when a server process starts: open the database and resume the
// runs a previous process left paused, so their deadlines and decisions keep working.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { getRuntime } = await import('./lib/server/runtime');
  await getRuntime().catch((error) => console.error('[gatehouse] startup failed:', (error as Error).message));
}
