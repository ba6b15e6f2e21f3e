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

function compileUncached(glob: string): PathMatcher {
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
      if (source.startsWith('[]', i)) throw new Error('an empty bracket expression [] is not supported in path patterns');
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
      if (/^\(\?<?[=!]/.test(source.slice(i, i + 4))) throw new Error('a negated extglob !(...) (or an unbalanced parenthesis) is not supported in path patterns: it needs a lookahead, which cannot be matched in linear time (write a deny rule instead)');
    }
    out += ch;
  }
  return out;
}

/** One escaped character of a JavaScript (non-unicode) regex, as RE2 reads the same thing. */
function escapeFor(ch: string, inClass: boolean): string {
  if (/[dDwWtnrfv]/.test(ch) || (ch === 'b' && !inClass) || (ch === 'B' && !inClass)) return `\\${ch}`;
  if (/[sScxuk0-9]/.test(ch) || ch === 'p' || ch === 'P' || ch === 'B') throw new Error(`the escape \\${ch} is not supported in path patterns`);
  if (/[a-zA-Z]/.test(ch)) return ch;
  return `\\${ch}`;
}
