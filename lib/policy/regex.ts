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
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (error) {
    const hint = UNSUPPORTED.find(([pattern]) => pattern.test(source))?.[1];
    const detail = String((error as Error).message ?? error).replace(/^error parsing regexp: /, '');
    throw new Error(`${hint ?? `not a valid regular expression (${detail})`}: regex conditions use RE2 syntax, which always matches in linear time`, { cause: error });
  }
  const size = re.programSize();
  if (size > MAX_REGEX_PROGRAM) {
    throw new Error(`the regular expression is too large (${size} RE2 instructions, at most ${MAX_REGEX_PROGRAM}): use fewer or smaller repetition counts`);
  }
  return { weight: 1 + size * REGEX_STEPS_PER_INSTRUCTION, test: (value) => re.test(value) };
}
