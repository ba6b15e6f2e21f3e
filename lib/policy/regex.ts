// Regex conditions run on RE2 (re2js, pure JavaScript): matching is linear in the value whatever
// the pattern, where V8's backtracking engine took seconds on `(a+)+$` and 26 characters.
// RE2 syntax (https://github.com/google/re2/wiki/Syntax) is the JavaScript syntax without
// lookarounds and backreferences, which cannot be matched in linear time: such a pattern is a
// validation error naming what to change.
import { RE2JS } from 're2js';
import { MAX_REGEX_PROGRAM, REGEX_STEPS_PER_INSTRUCTION } from './limits';
import { Lru } from './lru';

export interface RegexMatcher {
  /** True if the pattern matches anywhere in the value (like RegExp.prototype.test). */
  test(value: string): boolean;
  /** Steps one test costs per character of the value, at worst. */
  readonly weight: number;
}

const UNSUPPORTED: [RegExp, string][] = [
  [/\(\?<?[=!]/, 'lookarounds ((?=…), (?!…), (?<=…), (?<!…)) are not supported'],
  [/\\[1-9]|\\k</, 'backreferences (\\1, \\k<name>) are not supported'],
  [/\\u/, 'write a code point as \\x{263a}, not \\u263a'],
];

// Compiling RE2 costs far more than matching; policies repeat their patterns.
const cache = new Lru<string, RegexMatcher>(1024);

/** Compiles a regex condition; throws an Error whose message says what is wrong. */
export function compileRegex(source: string): RegexMatcher {
  let matcher = cache.get(source);
  if (!matcher) {
    matcher = compileUncached(source);
    cache.set(source, matcher);
  }
  return matcher;
}

function compileUncached(source: string): RegexMatcher {
  // RE2 expands counted repetitions (`.{999}` is 999 instructions) and compiling costs about a
  // microsecond per instruction: refuse what would be far too large before paying for it.
  const estimate = expandedSize(source);
  if (estimate > 4 * MAX_REGEX_PROGRAM) throw tooLarge(`about ${estimate}`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (error) {
    const hint = UNSUPPORTED.find(([pattern]) => pattern.test(source))?.[1];
    const detail = String((error as Error).message ?? error).replace(/^error parsing regexp: /, '');
    throw new Error(
      `${hint ?? `not a valid regular expression (${detail})`}: regex conditions use RE2 syntax, which always matches in linear time`,
      { cause: error },
    );
  }
  const size = re.programSize();
  if (size > MAX_REGEX_PROGRAM) throw tooLarge(String(size));
  return { weight: 1 + size * REGEX_STEPS_PER_INSTRUCTION, test: (value) => re.test(value) };
}

function tooLarge(size: string): Error {
  return new Error(
    `the regular expression is too large (${size} RE2 instructions, at most ${MAX_REGEX_PROGRAM}): use fewer or smaller repetition counts`,
  );
}

/**
 * An estimate of the instructions RE2 compiles a pattern to, without compiling it: atoms count
 * one, groups and quantifiers a few, and a counted repetition multiplies what it repeats. Never
 * throws; a malformed pattern gets some number and fails to compile afterwards.
 */
export function expandedSize(source: string): number {
  let i = 0;
  const alternation = (): number => {
    let total = sequence();
    while (source[i] === '|') {
      i++;
      total += sequence() + 1;
    }
    return total;
  };
  const sequence = (): number => {
    let total = 0;
    while (i < source.length && source[i] !== '|' && source[i] !== ')') total += quantified(atom());
    return total;
  };
  const atom = (): number => {
    const ch = source[i++];
    if (ch === '(') {
      if (source[i] === '?') {
        // (?:..), (?i:..), (?P<n>..), (?<n>..); a bare flag group (?i) holds nothing.
        while (i < source.length && !':)>'.includes(source[i]!)) i++;
        if (source[i] === ')') {
          i++;
          return 0;
        }
        i++;
      }
      const inner = alternation();
      if (source[i] === ')') i++;
      return inner + 2;
    }
    if (ch === '[') {
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']')
        i += source[i] === '\\' ? 2 : source.startsWith('[:', i) ? Math.max(2, source.indexOf(':]', i) + 2 - i) : 1;
      i++;
      return 1;
    }
    if (ch === '\\') {
      const next = source[i++];
      if (next === 'Q') {
        const end = source.indexOf('\\E', i);
        const length = (end < 0 ? source.length : end) - i;
        i = end < 0 ? source.length : end + 2;
        return length;
      }
      if ((next === 'p' || next === 'P' || next === 'x') && source[i] === '{')
        i = Math.max(i, source.indexOf('}', i) + 1);
    }
    return 1;
  };
  const quantified = (size: number): number => {
    for (;;) {
      const ch = source[i];
      if (ch === '*' || ch === '+' || ch === '?') {
        i++;
        size += 2;
      } else if (ch === '{') {
        const count = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
        if (!count) return size;
        i += count[0].length;
        const max = count[3] ? Number(count[3]) : count[2] ? Number(count[1]) + 1 : Number(count[1]);
        size = size * Math.max(1, max) + max + 2;
      } else return size;
      if (source[i] === '?') i++;
    }
  };
  let total = 0;
  while (i < source.length) {
    total += alternation();
    if (source[i] === ')') i++;
  }
  return total;
}
