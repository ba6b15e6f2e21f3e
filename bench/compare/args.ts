// bench:compare's command line. Pure; a usage error exits with status 2.
export const USAGE = `usage: npm run bench:compare -- --base <ref> --head <ref> [--bench policy] [--runs 5] [--only <regex>] [--all] [--keep] [-- <bench arguments>]
       npm run bench:compare -- <base> <head> [options]
  A ref is anything git names a commit by (HEAD~1, a branch, a hash), or . for the current
  checkout as it is, uncommitted changes included. --bench names an npm script: "policy" runs
  "bench:policy". The runs alternate A, B, A, B...; --runs is per side (default 5).`;

export class UsageError extends Error {}

export interface CompareArgs {
  base: string;
  head: string;
  /** The npm script, e.g. bench:policy. */
  script: string;
  runs: number;
  only?: RegExp;
  all: boolean;
  keep: boolean;
  /** Passed to the bench after its own `--`. */
  benchArgs: string[];
  help: boolean;
}

export function parseCompareArgs(argv: readonly string[]): CompareArgs {
  const split = argv.indexOf('--');
  const own = split < 0 ? argv : argv.slice(0, split);
  const benchArgs = split < 0 ? [] : argv.slice(split + 1);
  const positional: string[] = [];
  const out: Omit<CompareArgs, 'base' | 'head'> & { base?: string; head?: string } = {
    script: 'bench:policy',
    runs: 5,
    all: false,
    keep: false,
    benchArgs,
    help: false,
  };
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? own[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--')))
        throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--base') out.base = value();
    else if (flag === '--head') out.head = value();
    else if (flag === '--bench') {
      const name = value();
      out.script = name.startsWith('bench:') ? name : `bench:${name}`;
    } else if (flag === '--runs') {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 100)
        throw new UsageError(`--runs must be an integer from 1 to 100, got "${v}"`);
      out.runs = n;
    } else if (flag === '--only') {
      const v = value();
      try {
        out.only = new RegExp(v);
      } catch {
        throw new UsageError(`--only is not a regular expression: "${v}"`);
      }
    } else if (flag === '--all') out.all = true;
    else if (flag === '--keep') out.keep = true;
    else if (flag === '--help' || flag === '-h') out.help = true;
    else if (flag.startsWith('-')) throw new UsageError(`unknown option "${arg}"`);
    else positional.push(arg);
  }
  if (positional.length > 2) throw new UsageError(`too many refs: ${positional.join(' ')}`);
  const base = out.base ?? positional[0];
  const head = out.head ?? positional[out.base === undefined ? 1 : 0];
  if (out.help) return { ...out, base: base ?? '', head: head ?? '' };
  if (!base || !head) throw new UsageError('name two refs: --base <ref> --head <ref>');
  return { ...out, base, head };
}
