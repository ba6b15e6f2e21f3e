// Command patterns: a simple command written as words with globs, e.g. `git push *`.
// An unquoted `*` word in the middle matches one word, `**` any number of words, and a
// trailing `*` or `**` any rest, including none (`git push *` also matches `git push`).
// Inside a word `*` and `?` are globs; quoted text is literal. Matching is word by word, so
// `ls *` never matches `lsof`. Claude Code's `git push:*` spelling is accepted too. Word globs
// match in linear time (glob.ts compileWordGlob), never through a backtracking regex.
import { parse, type Word } from 'unbash';
import { compileWordGlob, type WordGlobPart } from '../glob';
import type { WildcardMatcher } from '../wildcard';
import type { ShellWord } from './types';

export type PatternWord =
  { kind: 'anyN' } | { kind: 'any1' } | { kind: 'literal'; text: string } | { kind: 'glob'; glob: WildcardMatcher };

export interface CommandPattern {
  source: string;
  words: PatternWord[];
  /** Steps one pattern word may cost per character of a command word (the heaviest glob's weight). */
  weight: number;
  /** Literal words of the pattern (what an allow rule spells out), made when first needed. */
  literals?: ReadonlySet<string>;
  /** Its reading with options as sets (programs/flagset.ts), made when first needed; null if it has none. */
  flags?: FlagPattern | null;
}

export interface PatternOption {
  name: string;
  long: boolean;
  value?: PatternWord;
}

/** A pattern read with options as sets (programs/flagset.ts compiles it). */
export interface FlagPattern {
  /** The program as the pattern writes it. */
  program: string;
  sub?: string;
  options: PatternOption[];
  /** The program word, then the operands (with the subcommand first when the pattern leaves it open). */
  operands: CommandPattern;
}

/** `may`: deny/ask, a dynamic word may be anything. `must`: allow, only wildcards cover it. */
export type MatchMode = 'may' | 'must';

export function compileCommandPattern(source: string): CommandPattern {
  let text = source.trim();
  if (text.endsWith(':*')) text = `${text.slice(0, -2)} *`;
  if (text === '') throw new Error('a command pattern must not be empty');
  const script = parse(text);
  if (script.errors && script.errors.length > 0)
    throw new Error(`"${source}" does not parse: ${script.errors[0]!.message}`);
  const statement = script.commands[0];
  if (script.commands.length !== 1 || !statement || statement.background || statement.command.type !== 'Command') {
    throw new Error(`"${source}" must be one simple command (write one rule per command)`);
  }
  const command = statement.command;
  if (!command.name || command.prefix.length > 0 || command.redirects.length > 0) {
    throw new Error(`"${source}" must be a program name followed by arguments, without assignments or redirections`);
  }
  const words = [command.name, ...command.args.map((a) => (a.type === 'Word' ? a : undefined))];
  const compiled = words.map((word, index): PatternWord => {
    if (!word) throw new Error(`"${source}" has an argument the pattern language does not support`);
    return compileWord(word, index === words.length - 1);
  });
  const weight = Math.max(1, ...compiled.map((w) => (w.kind === 'glob' ? w.glob.weight : 1)));
  return { source, words: compiled, weight };
}

function compileWord(word: Word, last: boolean): PatternWord {
  if (word.text === '**') return { kind: 'anyN' };
  if (word.text === '*') return last ? { kind: 'anyN' } : { kind: 'any1' };
  const parts: WordGlobPart[] = [];
  let wild = false;
  for (const part of word.parts ?? [{ type: 'Literal', value: word.value, text: word.text }]) {
    if (part.type === 'Glob') {
      wild = true;
      if (part.kind === 'star') parts.push({ star: true });
      else if (part.kind === 'question') parts.push({ question: true });
      else parts.push({ bracket: part.text });
    } else if ('value' in part && typeof part.value === 'string') {
      parts.push({ literal: part.value });
    } else {
      parts.push({ literal: part.text });
    }
  }
  if (!wild) return { kind: 'literal', text: word.value };
  return { kind: 'glob', glob: compileWordGlob(parts) };
}

function wordMatches(pattern: PatternWord, word: ShellWord, mode: MatchMode): boolean {
  switch (pattern.kind) {
    case 'anyN':
      return true;
    case 'any1':
      return mode === 'may' || !word.splittable;
    case 'literal':
      return word.dynamic ? mode === 'may' : word.value === pattern.text;
    case 'glob':
      return word.dynamic ? mode === 'may' : pattern.glob.test(word.value);
  }
}

/**
 * Does the pattern match these words? `openArgs`: more arguments follow at run time (xargs), so in
 * `must` mode the pattern has to end in a wildcard, in `may` mode it may still match later words.
 */
export function matchCommand(
  pattern: CommandPattern,
  words: readonly ShellWord[],
  mode: MatchMode,
  openArgs = false,
): boolean {
  if (words.length > 4096) return mode === 'may';
  const p = pattern.words;
  if (isLinear(p, words, mode)) return matchLinear(p, words, mode, openArgs);
  // General case: dynamic programming over (pattern word, command word), memoized.
  const memo = new Int8Array((p.length + 1) * (words.length + 1));
  return matchAt(p, words, mode, openArgs, memo, 0, 0);
}

/** No `**` before the end and no word that may split: a single left-to-right pass decides. */
function isLinear(p: readonly PatternWord[], words: readonly ShellWord[], mode: MatchMode): boolean {
  for (let i = 0; i < p.length - 1; i++) if (p[i]!.kind === 'anyN') return false;
  return mode === 'must' || !hasSplittableArgument(words);
}

// Remembered per long word list: the views of `find -exec` parts share the long `find` command,
// which every deny rule would otherwise scan again for each part.
const splittable = new WeakMap<readonly ShellWord[], boolean>();
const REMEMBER_FROM = 64;

function hasSplittableArgument(words: readonly ShellWord[]): boolean {
  let known = words.length >= REMEMBER_FROM ? splittable.get(words) : undefined;
  if (known === undefined) {
    known = false;
    for (let j = 1; j < words.length; j++) if (words[j]!.splittable) known = true;
    if (words.length >= REMEMBER_FROM) splittable.set(words, known);
  }
  return known;
}

function matchLinear(
  p: readonly PatternWord[],
  words: readonly ShellWord[],
  mode: MatchMode,
  openArgs: boolean,
): boolean {
  const trailingAny = p.length > 0 && p[p.length - 1]!.kind === 'anyN';
  const fixed = trailingAny ? p.length - 1 : p.length;
  if (words.length < fixed) return openArgs && mode === 'may' && prefixMatches(p, words, words.length, mode);
  if (!trailingAny && words.length > fixed) return false;
  if (!prefixMatches(p, words, fixed, mode)) return false;
  return trailingAny || !(openArgs && mode === 'must');
}

function prefixMatches(
  p: readonly PatternWord[],
  words: readonly ShellWord[],
  count: number,
  mode: MatchMode,
): boolean {
  for (let j = 0; j < count; j++) {
    const word = words[j]!;
    // A program name only known at run time never matches: such a part is opaque and asks.
    if (j === 0 && word.dynamic) return false;
    if (!wordMatches(p[j]!, word, mode)) return false;
  }
  return true;
}

function matchAt(
  p: readonly PatternWord[],
  words: readonly ShellWord[],
  mode: MatchMode,
  openArgs: boolean,
  memo: Int8Array,
  i: number,
  j: number,
): boolean {
  const key = i * (words.length + 1) + j;
  const known = memo[key]!;
  if (known !== 0) return known === 1;
  let result: boolean;
  if (i === p.length) {
    const endsInWildcard = p.length > 0 && p[p.length - 1]!.kind === 'anyN';
    result = j === words.length && (endsInWildcard || !(openArgs && mode === 'must'));
  } else if (p[i]!.kind === 'anyN') {
    result =
      matchAt(p, words, mode, openArgs, memo, i + 1, j) ||
      (j < words.length && matchAt(p, words, mode, openArgs, memo, i, j + 1));
  } else if (j === words.length) {
    result = openArgs && mode === 'may';
  } else {
    const word = words[j]!;
    if (mode === 'may' && word.splittable && j > 0) {
      // An unquoted expansion may become no word, one, or several.
      result =
        matchAt(p, words, mode, openArgs, memo, i, j + 1) ||
        matchAt(p, words, mode, openArgs, memo, i + 1, j + 1) ||
        matchAt(p, words, mode, openArgs, memo, i + 1, j);
    } else {
      result =
        (j > 0 || !word.dynamic) &&
        wordMatches(p[i]!, word, mode) &&
        matchAt(p, words, mode, openArgs, memo, i + 1, j + 1);
    }
  }
  memo[key] = result ? 1 : 2;
  return result;
}
