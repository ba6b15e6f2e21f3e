// Text globs: `*` and `**` match any characters (including `/`), `?` one character.
// Backslash escapes the next character. Used for tool names, agent names and `text` params.
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

export function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

export function textGlobToRegexSource(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) {
      out += escapeRegex(pattern[++i]!);
    } else if (ch === '*') {
      while (pattern[i + 1] === '*') i++;
      out += '[\\s\\S]*';
    } else if (ch === '?') {
      out += '[\\s\\S]';
    } else {
      out += escapeRegex(ch);
    }
  }
  return out;
}

export type StringMatcher = (value: string) => boolean;

export function compileTextGlob(pattern: string): StringMatcher {
  if (!/[*?\\]/.test(pattern)) return (value) => value === pattern;
  if (pattern === '*' || pattern === '**') return () => true;
  const regex = new RegExp(`^${textGlobToRegexSource(pattern)}$`);
  return (value) => regex.test(value);
}

export function isLiteralGlob(pattern: string): boolean {
  return !/[*?\\]/.test(pattern);
}

/** Escapes a literal so that compileTextGlob matches exactly it. */
export function escapeTextGlob(literal: string): string {
  return literal.replace(/[*?\\]/g, '\\$&');
}
