// The gate benchmark's command line: `--instances 1|2` (after `npm run bench:gate --`), or
// BENCH_GATE_INSTANCES; the flag wins. Anything else is a usage error (exit status 2).
export const USAGE =
  'usage: npm run bench:gate [-- --instances 1|2]   (or BENCH_GATE_INSTANCES=1|2; other knobs: bench/README.md)';

export class UsageError extends Error {}

export interface GateArgs {
  instances: 1 | 2;
  help: boolean;
}

export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): GateArgs {
  let raw: { value: string; from: string } | undefined = env.BENCH_GATE_INSTANCES?.trim()
    ? { value: env.BENCH_GATE_INSTANCES.trim(), from: 'BENCH_GATE_INSTANCES' }
    : undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--instances') {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError('--instances needs a value: 1 or 2');
      raw = { value, from: '--instances' };
    } else if (arg.startsWith('--instances=')) {
      raw = { value: arg.slice('--instances='.length), from: '--instances' };
    } else if (arg === '--help' || arg === '-h') {
      help = true;
    } else {
      throw new UsageError(`unknown argument "${arg}"`);
    }
  }
  if (!raw) return { instances: 1, help };
  if (raw.value !== '1' && raw.value !== '2') throw new UsageError(`${raw.from} must be 1 or 2, got "${raw.value}"`);
  return { instances: raw.value === '2' ? 2 : 1, help };
}
