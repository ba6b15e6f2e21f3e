// Path normalization and path patterns. Values and relative patterns resolve against the
// workspace root and are normalized lexically (`.`, `..`, `//`, `~`) before matching, so
// `src/**` never matches `src/../.git/config`. Symlinks are the tools' job: they resolve
// real paths before any access.
import path from 'node:path';
import os from 'node:os';
import picomatch from 'picomatch';
import { compilePathGlob, type PathMatcher } from './path-glob';

export interface PathContext {
  root: string;
  home: string;
  /** Identifies root and home, for caches of compiled path patterns. */
  key: string;
}

const contexts = new Map<string, PathContext>();
let defaultHome: string | undefined;

/** The root and home paths resolve against; memoized, since it sits on the decision path. */
export function pathContext(workspaceRoot?: string, homeDir?: string): PathContext {
  const root = workspaceRoot ?? process.cwd();
  const home = homeDir ?? (defaultHome ??= safeHome());
  const key = `${root}\u0000${home}`;
  let ctx = contexts.get(key);
  if (!ctx) {
    if (contexts.size > 256) contexts.clear();
    const resolvedRoot = path.posix.resolve(root);
    const resolvedHome = path.posix.resolve(home);
    ctx = { root: resolvedRoot, home: resolvedHome, key: `path\u0000${resolvedRoot}\u0000${resolvedHome}` };
    contexts.set(key, ctx);
  }
  return ctx;
}

function safeHome(): string {
  try {
    return os.homedir() || '/';
  } catch {
    return '/';
  }
}

function expandTilde(value: string, home: string): string {
  if (value === '~') return home;
  if (value.startsWith('~/')) return home + value.slice(1);
  return value;
}

/** The absolute, lexically normalized path a value names. */
export function resolvePath(value: string, ctx: PathContext): string {
  return path.posix.resolve(ctx.root, expandTilde(value, ctx.home));
}

export function isInside(absolute: string, root: string): boolean {
  return absolute === root || absolute.startsWith(root.endsWith('/') ? root : `${root}/`);
}

const PICOMATCH_SPECIAL = /[*?[\]{}()!+@|\\]/g;

export function escapePathGlob(literal: string): string {
  return literal.replace(PICOMATCH_SPECIAL, '\\$&');
}

/** Compiles a path glob against one root; patterns are absolute, `~/`-relative or root-relative. */
export function compilePathPattern(pattern: string, ctx: PathContext): PathMatcher {
  if (pattern.trim() === '/**') return { weight: 0, test: () => true };
  const full = absolutePathGlob(pattern, ctx);
  // The common shapes need no regex: a plain path, and a plain directory with `/**` (itself and
  // everything below it).
  if (!PATH_SPECIAL.test(full)) return { weight: 1, test: (absolute) => absolute === full };
  const dir = full.endsWith('/**') ? full.slice(0, -3) : undefined;
  if (dir && dir !== '' && !PATH_SPECIAL.test(dir)) {
    const below = `${dir}/`;
    return { weight: 1, test: (absolute) => absolute === dir || absolute.startsWith(below) };
  }
  const matcher = compilePathGlob(full);
  // A cheap prefix test first: with many path rules for one tool, most are skipped without
  // running their regex. Only for plain prefixes (an escaped character would not compare).
  const { base, isGlob } = picomatch.scan(full);
  if (isGlob && base.length > 1 && !base.includes('\\'))
    return { weight: matcher.weight, test: (absolute) => absolute.startsWith(base) && matcher.test(absolute) };
  return matcher;
}

/** A path pattern as the absolute, normalized glob it is matched as. */
export function absolutePathGlob(pattern: string, ctx: PathContext): string {
  const trimmed = pattern.trim();
  let full: string;
  if (trimmed.startsWith('/')) full = trimmed;
  else if (trimmed === '~' || trimmed.startsWith('~/')) full = escapePathGlob(ctx.home) + trimmed.slice(1);
  else full = `${escapePathGlob(ctx.root)}/${trimmed}`;
  return normalizeGlobPath(full);
}

/**
 * The literal directory every path an absolute glob matches lies in (or is), e.g. `/ws/src` for
 * `/ws/src/**`; the whole path for a literal one. Undefined when picomatch reads it as negated.
 */
export function pathGlobBase(full: string): string | undefined {
  const scan = picomatch.scan(full);
  if (scan.negated || scan.negatedExtglob || scan.prefix !== '') return undefined;
  const base = scan.base.replace(/\\(.)/gs, '$1');
  return base === '' ? '/' : base;
}

// picomatch's syntax characters, and `"`, which it reads as quotes.
const PATH_SPECIAL = /[*?[\]{}()!+@|\\"]/;

/** Lexical normalization of a glob path: collapses `//` and `.`, applies `..` to literal segments. */
function normalizeGlobPath(glob: string): string {
  const out: string[] = [];
  for (const segment of glob.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && !/[*?[\]{}()!+@|\\]/.test(out[out.length - 1]!)) {
      out.pop();
      continue;
    }
    out.push(segment);
  }
  return `/${out.join('/')}`;
}
