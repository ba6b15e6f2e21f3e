// Static analysis of shell words: the value a word has after quote removal, and whether it
// depends on run-time expansion.
import type { Word, WordPart } from 'unbash';
import type { ShellWord } from './types';

const STATIC_PARTS = new Set(['Literal', 'SingleQuoted', 'AnsiCQuoted', 'Glob', 'ExtendedGlob']);

export function analyzeWord(word: Word): ShellWord {
  const parts = word.parts;
  if (!parts || parts.length === 0) return { value: word.value, dynamic: false, splittable: false };
  let dynamic = false;
  let splittable = false;
  let glob = false;
  for (const part of parts) {
    if (part.type === 'Glob' || part.type === 'ExtendedGlob') glob = true;
    if (STATIC_PARTS.has(part.type)) continue;
    if (part.type === 'DoubleQuoted' || part.type === 'LocaleString') {
      if (part.parts.some((child) => child.type !== 'Literal')) dynamic = true;
      continue;
    }
    dynamic = true;
    splittable = true;
  }
  const analyzed: ShellWord = { value: dynamic ? word.text : word.value, dynamic, splittable };
  if (glob) analyzed.glob = true;
  if (parts.length === 1 && parts[0]!.type === 'ProcessSubstitution') analyzed.procsub = true;
  return analyzed;
}

/** True if the word contains an unquoted glob, so the file system picks what it becomes. */
export function hasUnquotedGlob(word: Word): boolean {
  return (word.parts ?? []).some(
    (part: WordPart) => part.type === 'Glob' || part.type === 'ExtendedGlob' || part.type === 'BraceExpansion',
  );
}

export function literalWord(value: string): ShellWord {
  return { value, dynamic: false, splittable: false };
}

const NEEDS_QUOTES = /[^A-Za-z0-9_@%+=:,./-]/;

/** Quotes a word so a shell (and the command-pattern parser) reads it back as this literal. */
export function quoteWord(value: string): string {
  if (value !== '' && !NEEDS_QUOTES.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function displayWords(words: readonly ShellWord[]): string {
  return words.map((w) => (w.dynamic ? w.value : quoteWord(w.value))).join(' ');
}

export function basename(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash >= 0 ? program.slice(slash + 1) : program;
}
