// Text globs: `*` and `**` match any characters (including `/`), `?` one character (UTF-16 code
// unit). Backslash escapes the next character. Used for tool names, agent names and `text`
// params. Matching is linear (wildcard.ts): no pattern makes it backtrack.
import { compileWildcard, type WildcardMatcher, type WildcardToken } from './wildcard';

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

export function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

export type StringMatcher = (value: string) => boolean;

const ANY: WildcardToken = { star: '' };

function textGlobTokens(pattern: string): WildcardToken[] {
  const tokens: WildcardToken[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern.charCodeAt(i);
    if (ch === 0x5c /* \ */ && i + 1 < pattern.length) tokens.push(pattern.charCodeAt(++i));
    else if (ch === 0x2a /* * */) {
      while (pattern[i + 1] === '*') i++;
      tokens.push(ANY);
    } else if (ch === 0x3f /* ? */) tokens.push('any');
    else tokens.push(ch);
  }
  return tokens;
}

const EXACT_WEIGHT = 1;

/** A text glob with its work bound per character of the value. */
export function compileTextGlobMatcher(pattern: string): WildcardMatcher {
  if (!/[*?\\]/.test(pattern)) return { weight: EXACT_WEIGHT, test: (value) => value === pattern };
  if (pattern === '*' || pattern === '**') return { weight: 0, test: () => true };
  // Stars all match anything, so greedy matching is always exact.
  return compileWildcard(textGlobTokens(pattern))!;
}

export function compileTextGlob(pattern: string): StringMatcher {
  return compileTextGlobMatcher(pattern).test;
}

export function isLiteralGlob(pattern: string): boolean {
  return !/[*?\\]/.test(pattern);
}

/** Escapes a literal so that compileTextGlob matches exactly it. */
export function escapeTextGlob(literal: string): string {
  return literal.replace(/[*?\\]/g, '\\$&');
}

/** A piece of a shell word pattern as the shell parser splits it: literal text, `*`, `?` or a bracket expression like `[a-z]`. */
export type WordGlobPart = { literal: string } | { star: true } | { question: true } | { bracket: string };

/**
 * A shell word glob (`*.ts`, `v[0-9]*`), matched in linear time. A bracket expression matches one
 * character as the JavaScript character class `[...]` with `!` or `^` negating, as before.
 */
export function compileWordGlob(parts: readonly WordGlobPart[]): WildcardMatcher {
  const tokens: WildcardToken[] = [];
  for (const part of parts) {
    if ('literal' in part) for (let i = 0; i < part.literal.length; i++) tokens.push(part.literal.charCodeAt(i));
    else if ('star' in part) tokens.push(ANY);
    else if ('question' in part) tokens.push('any');
    else tokens.push(bracketAtom(part.bracket));
  }
  return compileWildcard(tokens)!;
}

function bracketAtom(text: string): (code: number) => boolean {
  const body = text.slice(1, -1);
  const negate = body.startsWith('!') || body.startsWith('^');
  const chars = (negate ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&');
  // One character class and nothing else: there is nothing to backtrack over.
  const one = new RegExp(`^[${negate ? '^' : ''}${chars}]$`);
  return (code) => one.test(String.fromCharCode(code));
}
