// Path globs matched in linear time. picomatch (dot: true) stays the reference for what a path
// glob means, but its regular expression runs on RE2 instead of V8's backtracking engine, which
// took 25 s on `/w/*a*a*a*a*b` and a 200-character name. picomatch's lookaheads are dropped where
// they cannot change the result, since the values are absolute, normalized paths (no `.` or `..`
// segment, no empty segment, no trailing `/`): the `.`/`..` guards always hold, and "a character
// follows" fails only at the end of `/`. `/` itself is tested with picomatch's own expression
// (one character: nothing to backtrack over). What else would need a lookaround (a negated
// extglob `!(...)`) is refused when the rule is saved. One deliberate difference: `**` also
// covers names that contain a line break (picomatch's `.` skipped them, so `/etc/**` did not
// deny `/etc/a<newline>b`).
import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import { REGEX_STEPS_PER_INSTRUCTION } from './limits';
import { Lru } from './lru';
import { compileWildcard, type WildcardMatcher, type WildcardToken } from './wildcard';

export interface PathMatcher {
  test(absolute: string): boolean;
  /** Steps one test costs per character of the value, at worst. */
  readonly weight: number;
}

// The lookarounds picomatch emits with `dot: true` that always hold on a normalized path, except
// ONE_CHAR (`(?=.)`) at the very end of the value, which only `/` reaches (tested by picomatch).
const HARMLESS = ['(?!\\.{1,2}(?:\\/|$))', '(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))', '(?=.)'];

// Compiling RE2 costs far more than matching; policies repeat their patterns.
const cache = new Lru<string, PathMatcher>(1024);

/** Compiles a normalized absolute glob. Throws if it needs syntax RE2 cannot run. */
export function compilePathGlob(glob: string): PathMatcher {
  let matcher = cache.get(glob);
  if (!matcher) {
    matcher = compileUncached(glob);
    cache.set(glob, matcher);
  }
  return matcher;
}

/** Three or more unescaped stars in a row: picomatch reads them as `*` and stops escaping what follows. */
const STAR_RUN = /(^|[^\\])\*{3,}/;

function compileUncached(glob: string): PathMatcher {
  if (STAR_RUN.test(glob))
    throw new Error(
      `"${glob}" has three or more * in a row: write * (within one directory) or ** (across directories)`,
    );
  return compileSegments(glob) ?? compileRe2(glob);
}

/** picomatch's syntax beyond `*`, `?` and `**`: such globs go to RE2. */
const BEYOND_STARS = /[[\]{}()!+@|\\"']/;

/**
 * The common globs (only `*`, `?` and `**` segments) matched segment by segment, greedily like
 * wildcard.ts: a `**` segment matches any number of whole segments, including none, except where
 * picomatch asks for one at least (leading, or trailing after a segment that ends in `*`).
 */
function compileSegments(glob: string): PathMatcher | undefined {
  if (BEYOND_STARS.test(glob) || glob === '/') return undefined;
  // Consecutive `**` segments are one.
  const source = glob
    .slice(1)
    .split('/')
    .filter((segment, i, all) => segment !== '**' || all[i - 1] !== '**');
  const groups: SegmentMatcher[][] = [[]];
  let weight = 1;
  source.forEach((segment, i) => {
    if (segment === '**') {
      const last = i === source.length - 1;
      if ((i === 0 && !last) || (last && i > 0 && source[i - 1]!.endsWith('*')))
        groups[groups.length - 1]!.push(ANY_SEGMENT);
      groups.push([]);
      return;
    }
    const matcher = segmentMatcher(segment);
    weight += matcher.weight;
    groups[groups.length - 1]!.push(matcher);
  });
  const reference = picomatch.makeRe(glob, { dot: true });
  return {
    weight: weight * groups.length,
    test: (absolute) =>
      absolute === glob || (absolute === '/' ? reference.test(absolute) : matchGroups(groups, segmentsOf(absolute))),
  };
}

// The segments of the last path split: the rules of one call test the same path one after another.
let lastPath = '';
let lastSegments: string[] = [];

function segmentsOf(absolute: string): string[] {
  if (absolute !== lastPath) {
    lastSegments = absolute.slice(1).split('/');
    lastPath = absolute;
  }
  return lastSegments;
}

type SegmentMatcher = WildcardMatcher;
const ANY_SEGMENT: SegmentMatcher = { weight: 1, test: () => true };

function segmentMatcher(segment: string): SegmentMatcher {
  const tokens: WildcardToken[] = [];
  for (let i = 0; i < segment.length; i++) {
    const ch = segment.charCodeAt(i);
    if (ch === 0x2a /* * */) {
      while (segment[i + 1] === '*') i++;
      tokens.push(STAR);
    } else tokens.push(ch === 0x3f /* ? */ ? 'any' : ch);
  }
  return compileWildcard(tokens)!;
}

const STAR: WildcardToken = { star: '' };

/** Greedy over whole segments: the first and last groups anchored, each middle group at its leftmost place. */
function matchGroups(groups: SegmentMatcher[][], segments: string[]): boolean {
  const head = groups[0]!;
  if (groups.length === 1) return segments.length === head.length && matchesAt(head, segments, 0);
  const tail = groups[groups.length - 1]!;
  const end = segments.length - tail.length;
  if (end < head.length || !matchesAt(head, segments, 0) || !matchesAt(tail, segments, end)) return false;
  let pos = head.length;
  for (let g = 1; g < groups.length - 1; g++) {
    const group = groups[g]!;
    let at = pos;
    while (at + group.length <= end && !matchesAt(group, segments, at)) at++;
    if (at + group.length > end) return false;
    pos = at + group.length;
  }
  return true;
}

function matchesAt(group: SegmentMatcher[], segments: string[], at: number): boolean {
  for (let k = 0; k < group.length; k++) if (!group[k]!.test(segments[at + k]!)) return false;
  return true;
}

function compileRe2(glob: string): PathMatcher {
  const reference = picomatch.makeRe(glob, { dot: true });
  const source = toRe2Source(reference.source);
  const re = RE2JS.compile(source, RE2JS.DOTALL);
  const weight = 1 + re.programSize() * REGEX_STEPS_PER_INSTRUCTION;
  return {
    weight,
    // picomatch matches a value equal to the glob itself, whatever the glob's syntax says.
    test: (absolute) => absolute === glob || (absolute === '/' ? reference.test(absolute) : re.test(absolute)),
  };
}

/**
 * picomatch's (JavaScript) regex source in RE2 syntax: harmless lookarounds dropped, identity
 * escapes of letters made literal (`\a` is `a` in JavaScript, a bell in RE2). Throws on what has
 * no exact RE2 equivalent.
 */
export function toRe2Source(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[++i];
      if (next === undefined) throw new Error('the pattern ends with a lone backslash');
      out += escapeFor(next, inClass);
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      // JavaScript's `[]` matches nothing and `[^]` anything; RE2 reads both differently.
      if (source.startsWith('[]', i))
        throw new Error('an empty bracket expression [] is not supported in path patterns');
      if (source.startsWith('[^]', i)) throw new Error('the bracket expression [^] is not supported in path patterns');
      inClass = true;
      out += ch;
      continue;
    }
    if (ch === '(' && source[i + 1] === '?') {
      const harmless = HARMLESS.find((h) => source.startsWith(h, i));
      if (harmless) {
        i += harmless.length - 1;
        continue;
      }
      if (/^\(\?<?[=!]/.test(source.slice(i, i + 4)))
        throw new Error(
          'a negated extglob !(...) (or an unbalanced parenthesis) is not supported in path patterns: it needs a lookahead, which cannot be matched in linear time (write a deny rule instead)',
        );
    }
    out += ch;
  }
  return out;
}

/** One escaped character of a JavaScript (non-unicode) regex, as RE2 reads the same thing. */
function escapeFor(ch: string, inClass: boolean): string {
  if (/[dDwWtnrfv]/.test(ch) || (ch === 'b' && !inClass) || (ch === 'B' && !inClass)) return `\\${ch}`;
  if (/[sScxuk0-9]/.test(ch) || ch === 'p' || ch === 'P' || ch === 'B')
    throw new Error(`the escape \\${ch} is not supported in path patterns`);
  if (/[a-zA-Z]/.test(ch)) return ch;
  return `\\${ch}`;
}
