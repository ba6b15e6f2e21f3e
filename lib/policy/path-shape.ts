// What a shell part's file operand may be, as a list of path segments, and whether a path rule
// may match it. A segment is a name, a shell glob (`*.ts`: the file system picks the name), one
// unknown name, or any number of unknown segments (an expansion, an unknown directory, or, for
// a recursive reader, everything below a directory). A rule's path glob is split the same way;
// the two lists intersect if some path fits both. Answers err towards "may match": they decide
// deny and ask rules only. Linear-time pieces, O(segments x segments) in all, charged by the caller.
import { compileWordGlob, type WordGlobPart } from './glob';
import { compilePathGlob, type PathMatcher } from './path-glob';
import { absolutePathGlob, type PathContext } from './paths';
import { UNKNOWN_DIR, type Dir } from './shell/dirs';
import type { FileAccess } from './shell/types';
import type { WildcardMatcher } from './wildcard';

export type ShapeSegment =
  | { kind: 'name'; name: string }
  | { kind: 'glob'; text: string; matcher: WildcardMatcher }
  | { kind: 'one' }
  | { kind: 'any' };

export interface PathShape {
  segments: ShapeSegment[];
  /** The absolute path, when every segment is a name. */
  exact?: string;
  /** Globs may match names that start with a dot. */
  dotglob: boolean;
}

const ANY: ShapeSegment = { kind: 'any' };
const MAX_SEGMENTS = 256;

/** The shape of a file a part touches, run from `dir` (dirs.ts) with the command starting in `start`. */
export function shapeOf(access: FileAccess, dir: Dir, start: string, paths: PathContext, dotglob: boolean): PathShape {
  const word = access.word;
  let base: ShapeSegment[];
  let rest: ShapeSegment[];
  const text = word.value;
  if (word.dynamic || text.includes('{}')) {
    [base, rest] = dynamicSegments(text, dir, start, paths);
  } else if (text.startsWith('/')) {
    [base, rest] = [[], wordSegments(text, word.glob === true)];
  } else if (text === '~' || text.startsWith('~/')) {
    [base, rest] = [names(paths.home), wordSegments(text.slice(1), word.glob === true)];
  } else if (text.startsWith('~')) {
    // `~user/...`: another user's home.
    [base, rest] = [[ANY], wordSegments(text.slice(text.indexOf('/') + 1 || text.length), word.glob === true)];
  } else {
    [base, rest] = [dirSegments(dir, start, paths), wordSegments(text, word.glob === true)];
  }
  const segments = throughProc(normalize([...base, ...rest]));
  if (access.recursive) segments.push(ANY);
  const shape: PathShape = { segments, dotglob };
  if (segments.every((s) => s.kind === 'name'))
    shape.exact = `/${segments.map((s) => (s as { name: string }).name).join('/')}`;
  return shape;
}

function names(path: string): ShapeSegment[] {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((name) => ({ kind: 'name', name }));
}

function dirSegments(dir: Dir, start: string, paths: PathContext): ShapeSegment[] {
  if (dir === UNKNOWN_DIR) return [ANY];
  if (dir.startsWith('/')) return names(dir);
  if (dir === '~' || dir.startsWith('~/')) return names(paths.home + dir.slice(1));
  return names(dir === '' ? start : `${start}/${dir}`);
}

const GLOB_CHARS = /[*?[]/;

function wordSegments(text: string, glob: boolean): ShapeSegment[] {
  return text
    .split('/')
    .filter((s) => s !== '')
    .map((segment): ShapeSegment =>
      glob && GLOB_CHARS.test(segment) ? globSegment(segment) : { kind: 'name', name: segment },
    );
}

/** A shell glob segment (`*.ts`, `v[0-9]*`) as a linear matcher. */
function globSegment(text: string): ShapeSegment {
  const parts: WordGlobPart[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '*') parts.push({ star: true });
    else if (c === '?') parts.push({ question: true });
    else if (c === '[') {
      const end = text.indexOf(']', i + 2);
      if (end < 0) parts.push({ literal: c });
      else {
        parts.push({ bracket: text.slice(i, end + 1) });
        i = end;
      }
    } else parts.push({ literal: c });
  }
  return { kind: 'glob', text, matcher: compileWordGlob(parts) };
}

const PLAIN_TAIL = /^[\w.@%+=:,-]+(\/[\w.@%+=:,-]+)*$/;

/**
 * A word with expansions (`"$DIR/.env"`, `{}` of find -exec): what is written literally before
 * the first expansion and after the last one is kept, everything between may be anything.
 */
function dynamicSegments(text: string, dir: Dir, start: string, paths: PathContext): [ShapeSegment[], ShapeSegment[]] {
  const unquoted = text.replace(/^["']+|["']+$/g, '');
  const first = unquoted.search(/[$`]|\{\}/);
  const prefix = first < 0 ? unquoted : unquoted.slice(0, first);
  const lastDollar = Math.max(unquoted.lastIndexOf('$'), unquoted.lastIndexOf('`'), unquoted.lastIndexOf('{}'));
  const afterLast = unquoted.slice(lastDollar + 1);
  const slash = afterLast.indexOf('/');
  const tail = slash < 0 ? '' : afterLast.slice(slash + 1);
  const tailSegments = tail !== '' && PLAIN_TAIL.test(tail) ? names(tail) : [];
  const prefixDir = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  let base: ShapeSegment[];
  if (prefix === '') base = [];
  else if (prefixDir.startsWith('/') && PLAIN_TAIL.test(prefixDir.slice(1, -1) || 'x')) base = names(prefixDir);
  else if (prefixDir !== '' && !prefixDir.startsWith('~') && PLAIN_TAIL.test(prefixDir.slice(0, -1)))
    base = [...dirSegments(dir, start, paths), ...names(prefixDir)];
  else base = [];
  return [base, [ANY, ...tailSegments]];
}

const PROC_LINKS = new Set(['root', 'cwd', 'fd', 'map_files']);

/**
 * `/proc/self/root/home/u/.ssh/id_rsa` is `/home/u/.ssh/id_rsa`, `/proc/self/cwd/.env` is the
 * `.env` where the command runs: a process's links in /proc name any file by another path, so
 * what comes before the rest is unknown (`/proc/<pid>/task/<tid>/root` and globs alike).
 */
function throughProc(segments: ShapeSegment[]): ShapeSegment[] {
  const first = segments[0];
  if (first?.kind !== 'name' || first.name !== 'proc') return segments;
  for (let i = 2; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind !== 'name' || PROC_LINKS.has(segment.name)) return [ANY, ...segments.slice(i + 1)];
  }
  return segments;
}

/** Applies `.` and `..` lexically; `..` after an unknown run stays unknown. */
function normalize(segments: ShapeSegment[]): ShapeSegment[] {
  const out: ShapeSegment[] = [];
  for (const segment of segments) {
    if (segment.kind === 'name' && segment.name === '.') continue;
    if (segment.kind === 'name' && segment.name === '..') {
      const last = out[out.length - 1];
      if (last && last.kind !== 'any') out.pop();
      continue;
    }
    if (segment.kind === 'any' && out[out.length - 1]?.kind === 'any') continue;
    out.push(segment);
  }
  return out;
}

// ---- a rule's path glob, by segments --------------------------------------------------------

type PatternSegment =
  { kind: 'globstar' } | { kind: 'literal'; text: string } | { kind: 'glob'; text: string; matcher: PathMatcher };

/** A rule's path pattern split into segments; undefined when a `/` sits inside braces or parentheses. */
export interface PatternSegments {
  segments: PatternSegment[] | undefined;
}

const SPECIAL = /[*?[\]{}()!+@|\\"]/;

export function patternSegments(pattern: string, paths: PathContext): PatternSegments {
  const full = absolutePathGlob(pattern, paths);
  const pieces: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 1; i < full.length; i++) {
    const c = full[i]!;
    if (c === '\\') {
      current += c + (full[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '{' || c === '(') depth++;
    else if (c === '}' || c === ')') depth = Math.max(0, depth - 1);
    if (c === '/' && depth > 0) return { segments: undefined };
    if (c === '/') {
      pieces.push(current);
      current = '';
    } else current += c;
  }
  pieces.push(current);
  const segments = pieces
    .filter((p) => p !== '')
    .map((piece): PatternSegment => {
      if (piece === '**') return { kind: 'globstar' };
      if (!SPECIAL.test(piece)) return { kind: 'literal', text: piece };
      return { kind: 'glob', text: piece, matcher: compilePathGlob(`/${piece}`) };
    });
  return { segments };
}

/** Steps one intersection costs: segments x segments, plus the segment texts. */
export function intersectionCost(pattern: PatternSegments, shape: PathShape): number {
  const m = pattern.segments?.length ?? 1;
  return 1 + (m + 1) * (shape.segments.length + 1) * 4 + 64 * m;
}

/** May a path fit both the rule's pattern and the shape? */
export function mayIntersect(pattern: PatternSegments, shape: PathShape): boolean {
  const p = pattern.segments;
  const s = shape.segments;
  // Deeper than any real path: may match (it only decides deny and ask rules).
  if (!p || p.length > MAX_SEGMENTS || s.length > MAX_SEGMENTS) return true;
  const memo = new Int8Array((p.length + 1) * (s.length + 1));
  const at = (i: number, j: number): boolean => {
    const key = i * (s.length + 1) + j;
    if (memo[key] !== 0) return memo[key] === 1;
    let result: boolean;
    if (i === p.length && j === s.length) result = true;
    else if (i < p.length && p[i]!.kind === 'globstar') result = at(i + 1, j) || (j < s.length && at(i, j + 1));
    else if (j < s.length && s[j]!.kind === 'any') result = at(i, j + 1) || (i < p.length && at(i + 1, j));
    else if (i === p.length || j === s.length) result = false;
    else result = segmentsMeet(p[i]!, s[j]!, shape.dotglob) && at(i + 1, j + 1);
    memo[key] = result ? 1 : 2;
    return result;
  };
  return at(0, 0);
}

function segmentsMeet(p: PatternSegment, s: ShapeSegment, dotglob: boolean): boolean {
  if (p.kind === 'globstar' || s.kind === 'any' || s.kind === 'one') return true;
  if (s.kind === 'name') return p.kind === 'literal' ? p.text === s.name : p.matcher.test(`/${s.name}`);
  // A shell glob never matches a leading dot unless it starts with one (or dotglob is on).
  if (p.kind === 'literal')
    return s.matcher.test(p.text) && (dotglob || !p.text.startsWith('.') || s.text.startsWith('.'));
  return globsMeet(p.text, s.text);
}

/** Two globs of the common shape `prefix*suffix` meet only if their prefixes and suffixes agree. */
function globsMeet(a: string, b: string): boolean {
  const simple = /^([^*?[\]{}()!+@|\\]*)\*([^*?[\]{}()!+@|\\]*)$/;
  const x = simple.exec(a);
  const y = simple.exec(b);
  if (!x || !y) return true;
  const prefixes = x[1]!.startsWith(y[1]!) || y[1]!.startsWith(x[1]!);
  const suffixes = x[2]!.endsWith(y[2]!) || y[2]!.endsWith(x[2]!);
  return prefixes && suffixes;
}
