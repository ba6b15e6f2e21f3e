// The gate benchmark's fixed settings and environment knobs, shared by the one- and two-instance
// modes (bench/README.md lists the knobs). The admin token is random per run of the benchmark.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** When the benchmark started (for the total run time it prints). */
export const T00 = performance.now();
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const QUICK = process.env.BENCH_QUICK === '1';
export const WARMUP_PROBES = 30; // JIT warm-up: with 5, the N = 1 level read 2-3 ms slower than N = 100
export const FILL_CONCURRENCY = 20;
export const STEP_TIMEOUT_MS = 30_000; // one request, or one awaited SSE event
export const FILL_BUDGET_MS = 180_000; // starting the background runs of one level
export const PROBE_BUDGET_MS = 90_000; // all probes of one level
export const HARD_LIMIT_MS = 540_000; // the whole benchmark after the build check: past this it stops, cleans up, exits 1
export const IDLE_WINDOW_MS = 3_000;

/** Every request authenticates as the admin with this API token (the servers get it as GATEHOUSE_ADMIN_TOKEN). */
export const TOKEN = `bench-${randomBytes(24).toString('hex')}`;
export const AUTH = { Authorization: `Bearer ${TOKEN}` };

/** A comma-separated list of numbers from the environment, or the fallback text parsed the same way. */
export function numberList(value: string | undefined, fallback: string): number[] {
  return (value ?? fallback).split(',').map((s) => Number(s.trim()));
}

/** A positive integer from the environment (a clear error, not NaN, for anything else). */
export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}
