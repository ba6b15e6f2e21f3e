// Graceful shutdown (SIGTERM from a container runtime or a process manager, Ctrl-C). Every run
// executing here is detached: it stops without settling anything, so it stays paused (or running)
// in the database with its relays open. With several instances its lease is released and
// announced, so another instance adopts it at once rather than after the lease TTL; with one, the
// next start resumes it. Then the notify bus and the database are closed (PGlite flushes and frees
// its data directory). Bounded: after `timeoutMs` the process exits anyway (nothing is lost: a
// run not handed over is adopted once its lease lapses, or resumed at the next start).
//
// Next's own handler (`next start`) exits as soon as its HTTP server has closed, which may be
// before this finishes; `npm start` sets NEXT_MANUAL_SIG_HANDLE=true so Next leaves the signal to
// this handler, which exits when done (docs/DEPLOY.md).
import type { Runtime } from './runtime';

export interface ShutdownDeps {
  runtime(): Promise<Pick<Runtime, 'runs' | 'bus' | 'database'>>;
  /** True when Next leaves the signals to us (NEXT_MANUAL_SIG_HANDLE): we exit when done. */
  manual: boolean;
  timeoutMs?: number;
  exit?: (code: number) => void;
  log?: (message: string) => void;
  on?: (signal: NodeJS.Signals, handler: () => void) => void;
}

/** Detaches this process's runs, releases their leases, closes the bus and the database. */
export async function shutdownRuntime(
  runtime: Pick<Runtime, 'runs' | 'bus' | 'database'> &
    Partial<Pick<Runtime, 'shadow' | 'external' | 'webhooks'>> & { mcp?: Pick<Runtime['mcp'], 'close'> },
): Promise<string[]> {
  // Outside agents' held requests end with this process: their relays are cancelled first.
  await runtime.external?.shutdown();
  const handedOver = await runtime.runs.shutdown();
  // No run uses an upstream MCP server any more: stdio servers are stopped, http sessions let go,
  // and none refreshes its tools against a closed database.
  await runtime.mcp?.close().catch(() => undefined);
  // Attempts in flight finish (each is time-limited); queued deliveries wait in the database.
  await runtime.webhooks?.sender.stop();
  // The shadow's last differences, before the database closes (a failure only loses them).
  await runtime.shadow?.monitor.flush();
  await runtime.bus?.close();
  await runtime.database.close();
  return handedOver;
}

const EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export function installShutdown({
  runtime,
  manual,
  timeoutMs = 10_000,
  exit = (code) => process.exit(code),
  log = (m) => console.log(m),
  on = (s, h) => void process.once(s, h),
}: ShutdownDeps): void {
  let started = false;
  const stop = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    const code = EXIT_CODES[signal] ?? 128;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref?.();
    });
    void Promise.race([runtime().then(shutdownRuntime), timedOut])
      .then((outcome) => {
        if (outcome === 'timeout')
          log(
            `[gatehouse] ${signal}: shutdown did not finish in ${timeoutMs} ms; exiting (its runs are adopted once their leases lapse, or resumed at the next start)`,
          );
        else log(`[gatehouse] ${signal}: stopped; ${outcome.length} run(s) handed over`);
      })
      .catch((error: Error) => log(`[gatehouse] ${signal}: shutdown failed: ${error.message}`))
      .finally(() => {
        clearTimeout(timer);
        if (manual) exit(code);
      });
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) on(signal, () => stop(signal));
}
