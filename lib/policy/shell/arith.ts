// Reads a bash arithmetic expression (a template: literal text with holes for expansions) the way
// bash evaluates it, to find everything that could run code: bash evaluates a variable's value as
// an expression in turn, and expands a subscript's text (`a[$(cmd)]`) when it evaluates it. The
// text is inert only if it is numbers, operators and names whose values the caller can vouch for.
import { isHole, HOLE_BASE, Level, type Template } from './template';

export interface ArithScan {
  /** Why the expression is not provably inert, if it is not. */
  fail?: string;
  /** Variables whose values bash evaluates as expressions. */
  reads: string[];
  /** Variables assigned with a plain `=` (hold an integer afterwards). */
  writes: string[];
  /** Holes and the most their values may be: `Arith` where evaluated, `Clean` in an associative subscript. */
  holes: { index: number; max: Level }[];
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isWordChar = (c: number): boolean => isLetter(c) || isDigit(c);
const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 10;
/** `+-*\/%<>=!&|^~?:,()` */
const OPERATOR = new Set([43, 45, 42, 47, 37, 60, 62, 61, 33, 38, 124, 94, 126, 63, 58, 44, 40, 41]);

export interface Arrays {
  /** The name is an associative array: its subscripts are strings, not expressions. */
  isAssociative(name: string): boolean;
}

export function scanArith(t: Template, arrays: Arrays): ArithScan {
  const out: ArithScan = { reads: [], writes: [], holes: [] };
  scanRange(t.text, 0, t.text.length, out, arrays);
  return out;
}

function scanRange(text: string, from: number, to: number, out: ArithScan, arrays: Arrays): void {
  let i = from;
  while (i < to && out.fail === undefined) {
    const c = text.charCodeAt(i);
    if (isBlank(c) || OPERATOR.has(c)) {
      i++;
    } else if (isHole(c)) {
      // `a$x` or `${x}b` would glue the value to a name: a variable no one set.
      if ((i > from && isLetter(text.charCodeAt(i - 1))) || (i + 1 < to && isLetter(text.charCodeAt(i + 1)))) {
        out.fail = 'an expansion joins a name';
        return;
      }
      out.holes.push({ index: c - HOLE_BASE, max: Level.Arith });
      i++;
    } else if (isDigit(c)) {
      i++;
      while (i < to && (isWordChar(text.charCodeAt(i)) || text[i] === '#' || text[i] === '@')) i++;
    } else if (isLetter(c)) {
      i = name(text, i, to, out, arrays);
    } else {
      out.fail = `it holds \`${text[i]}\``;
    }
  }
}

/** A name at i, its subscript if any, and whether it is assigned. Returns the index after it. */
function name(text: string, start: number, to: number, out: ArithScan, arrays: Arrays): number {
  let i = start + 1;
  while (i < to && isWordChar(text.charCodeAt(i))) i++;
  const id = text.slice(start, i);
  let j = skipBlanks(text, i, to);
  let subscripted = false;
  if (text[j] === '[') {
    const close = matchingBracket(text, j, to);
    if (close < 0) {
      out.fail = 'a subscript is not closed';
      return to;
    }
    if (arrays.isAssociative(id)) assocSubscript(text, j + 1, close, out);
    else scanRange(text, j + 1, close, out, arrays);
    subscripted = true;
    i = close + 1;
    j = skipBlanks(text, i, to);
  }
  const assigns = text[j] === '=' && text[j + 1] !== '=';
  if (!assigns) out.reads.push(id);
  else if (!subscripted) out.writes.push(id);
  return i;
}

/** An associative array's subscript is expanded as a string: no code may remain in it. */
function assocSubscript(text: string, from: number, to: number, out: ArithScan): void {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (isHole(c)) out.holes.push({ index: c - HOLE_BASE, max: Level.Clean });
    else if (c === 36 || c === 96 || c === 92) {
      out.fail = `a subscript holds \`${text[i]}\``;
      return;
    }
  }
}

function skipBlanks(text: string, i: number, to: number): number {
  while (i < to && isBlank(text.charCodeAt(i))) i++;
  return i;
}

function matchingBracket(text: string, open: number, to: number): number {
  let depth = 0;
  for (let i = open; i < to; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  return -1;
}
