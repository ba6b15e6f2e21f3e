// The cheap look at a shell script before it is parsed: one linear pass that bounds how deeply
// its constructs nest and how many syntax elements it has. The parser recurses per nesting level
// and costs time per element, so a script past either bound is opaque (asked) without parsing.
// The pass may count more nesting than the parser sees (a `{` in a word, `case` as an argument)
// but not less: quotes, escapes, comments and heredoc bodies are followed as bash does, closers
// only close an opener of their own kind, and nothing inside quotes can close what is outside.

/** Deepest nesting of `$(`, backticks, `${`, `$((`, `(`, `{`, quotes, `case` and heredocs inspected. */
export const MAX_NESTING = 64;
/** Most syntax elements (words, operators, expansions) inspected in one command, nested scripts included. */
export const MAX_ELEMENTS = 2_000;

const enum F {
  Code, // top level, `$(`, `<(`, `(`, `{`, `case`: comments, quotes and heredocs apply
  Sub, // `$(`, `<(`, `>(`
  Paren,
  Brace,
  Case,
  Backtick,
  Dq,
  Param, // `${`
  ParamDq, // `${` inside double quotes or a heredoc: single quotes are literal
  Arith, // `$((` and `((`: closed by `))`
  ArithParen,
  ArithBracket, // `$[`
  Heredoc,
}

const isCodeFrame = (f: F): boolean => f <= F.Backtick;
const isBlank = (c: number): boolean => c === 32 || c === 9;
/** Characters that end a word: blanks, newline and bash's metacharacters `;&|()<>`. */
const isBreak = (c: number): boolean =>
  isBlank(c) || c === 10 || c === 59 || c === 38 || c === 124 || c === 40 || c === 41 || c === 60 || c === 62;

/**
 * 1 for ASCII characters with no meaning to the scan in any frame. `c` and `e` are kept out so
 * `case`/`esac` are seen, operators so arithmetic frames can count them.
 */
const PLAIN = new Uint8Array(128);
for (let c = 0; c < 128; c++) PLAIN[c] = /[A-Zabd-z0-9_.@]/.test(String.fromCharCode(c)) && c !== 101 ? 1 : 0;
/** Arithmetic operators: each is a node of the expression tree. */
const ARITH_OPERATOR = new Set([...'+-*/%<>=!&|^~?:,'].map((ch) => ch.charCodeAt(0)));

interface Heredoc {
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
}

export interface PrecheckResult {
  /** Why the script is not inspected, if it is not. */
  reject?: string;
  elements: number;
}

/** Scans `source`; `budget` is how many elements the command may still have. Never throws. */
export function precheck(source: string, budget: number = MAX_ELEMENTS): PrecheckResult {
  // Shorter than the nesting limit: it cannot nest deeper, nor have more elements than characters.
  if (source.length < MAX_NESTING && source.length <= budget) return { elements: source.length };
  const scanner = new Scanner(source, budget);
  scanner.scan(0, source.length, F.Code);
  return { reject: scanner.reject, elements: scanner.elements };
}

class Scanner {
  private readonly stack: F[] = [];
  private pending: Heredoc[] = [];
  /** In a code frame: the next character starts a word (so `#` starts a comment). */
  private wordStart = true;
  elements = 0;
  reject?: string;

  constructor(
    private readonly src: string,
    private readonly budget: number,
  ) {}

  private push(frame: F): boolean {
    if (this.stack.length >= MAX_NESTING) {
      this.reject ??= `it nests more than ${MAX_NESTING} levels deep`;
      return false;
    }
    this.stack.push(frame);
    return true;
  }

  private count(): boolean {
    if (++this.elements > this.budget) {
      this.reject ??= `it has more than ${MAX_ELEMENTS} words, operators and expansions`;
      return false;
    }
    return true;
  }

  /** Scans src[from, to) in a new frame `base`; frames opened inside and left open are dropped. */
  scan(from: number, to: number, base: F): void {
    const floor = this.stack.length;
    if (!this.push(base)) return;
    const src = this.src;
    let i = from;
    this.wordStart = true;
    while (i < to && this.reject === undefined) {
      const c = src.charCodeAt(i);
      // Runs of ordinary characters: nothing to track but that a word goes on.
      if (c < 128 && PLAIN[c] === 1) {
        if (this.wordStart && isCodeFrame(this.stack[this.stack.length - 1]!)) {
          if (!this.count()) break;
          this.wordStart = false;
        }
        i++;
        while (i < to) {
          const d = src.charCodeAt(i);
          if (d >= 128 || PLAIN[d] !== 1) break;
          i++;
        }
        continue;
      }
      const top = this.stack[this.stack.length - 1]!;
      if (c === 92 /* \ */) {
        if (this.wordStart && isCodeFrame(top) && !this.count()) break;
        i += 2;
        this.wordStart = false;
      } else if (c === 36 /* $ */) {
        const depth = this.stack.length;
        i = this.dollar(i, to, top);
        // After `$(` a new command starts; after any other expansion the word goes on.
        this.wordStart = this.stack.length > depth && this.stack[this.stack.length - 1] === F.Sub;
      } else if (isCodeFrame(top)) {
        i = this.code(i, to, c, top);
      } else {
        i = this.quoted(i, to, c, top);
      }
    }
    this.stack.length = floor;
  }

  /** `$` at i: an expansion. Returns the index after it (or `to` once rejected). */
  private dollar(i: number, to: number, top: F): number {
    if (!this.count()) return to;
    const src = this.src;
    const n = src.charCodeAt(i + 1);
    if (n === 40 /* ( */) {
      if (i + 2 < to && src.charCodeAt(i + 2) === 40) return this.push(F.Arith) ? i + 3 : to;
      return this.push(F.Sub) ? i + 2 : to;
    }
    if (n === 123 /* { */) {
      const inDq = top === F.Dq || top === F.Heredoc || top === F.ParamDq;
      return this.push(inDq ? F.ParamDq : F.Param) ? i + 2 : to;
    }
    if (n === 91 /* [ */) return this.push(F.ArithBracket) ? i + 2 : to;
    if (n === 39 /* ' */ && (isCodeFrame(top) || top === F.Param)) return this.skipAnsiC(i + 2, to);
    if (n === 34 /* " */ && isCodeFrame(top)) return this.push(F.Dq) ? i + 2 : to;
    return i + 1;
  }

  /** One special character in a code frame. Returns the index after what it started. */
  private code(i: number, to: number, c: number, top: F): number {
    const src = this.src;
    const wordStart = this.wordStart;
    this.wordStart = false;
    if (c === 10 /* \n */) {
      const next = this.pending.length > 0 ? this.heredocBodies(i + 1, to) : i + 1;
      this.wordStart = true; // a new line starts a command, after any heredoc bodies
      return next;
    }
    if (isBlank(c)) {
      this.wordStart = true;
      return i + 1;
    }
    if (c === 35 /* # */ && wordStart) {
      this.wordStart = true;
      const eol = src.indexOf('\n', i);
      return eol < 0 || eol > to ? to : eol;
    }
    // An element: a word beginning, a quoted part, an operator.
    if ((wordStart || c === 39 || c === 34 || c === 96 || isBreak(c)) && !this.count()) return to;
    switch (c) {
      case 39 /* ' */:
        return this.skipSingle(i + 1, to);
      case 34 /* " */:
        return this.push(F.Dq) ? i + 1 : to;
      case 96 /* ` */:
        if (top === F.Backtick) {
          this.stack.pop();
          return i + 1;
        }
        this.wordStart = true;
        return this.push(F.Backtick) ? i + 1 : to;
      case 40 /* ( */:
        if (wordStart && src.charCodeAt(i + 1) === 40) return this.push(F.Arith) ? i + 2 : to;
        this.wordStart = true;
        return this.push(F.Paren) ? i + 1 : to;
      case 41 /* ) */:
        if (top === F.Paren || top === F.Sub) this.stack.pop();
        this.wordStart = true;
        return i + 1;
      case 123 /* { */:
        return this.push(F.Brace) ? i + 1 : to;
      case 125 /* } */:
        if (top === F.Brace) this.stack.pop();
        return i + 1;
      case 60 /* < */:
      case 62 /* > */: {
        const n = src.charCodeAt(i + 1);
        this.wordStart = true;
        if (n === 40) return this.push(F.Sub) ? i + 2 : to;
        if (c === 60 && n === 60 && src.charCodeAt(i + 2) !== 60) {
          this.wordStart = false;
          return this.heredocOperator(i + 2, to);
        }
        return i + 1;
      }
      case 59 /* ; */:
      case 38 /* & */:
      case 124 /* | */:
        this.wordStart = true;
        return i + 1;
    }
    // Only `c` and `e` reach here as ordinary letters when PLAIN excludes them: keywords.
    if (wordStart && this.keyword(i, to, 'case')) return this.push(F.Case) ? i + 4 : to;
    if (wordStart && this.keyword(i, to, 'esac')) {
      if (top === F.Case) this.stack.pop();
      return i + 4;
    }
    return i + 1;
  }

  /** One character inside double quotes, `${`, arithmetic or a heredoc body (`$` is handled before). */
  private quoted(i: number, to: number, c: number, top: F): number {
    switch (top) {
      case F.Dq:
        if (c === 34) this.stack.pop();
        else if (c === 96) return this.push(F.Backtick) ? i + 1 : to;
        return i + 1;
      case F.Param:
      case F.ParamDq:
        if (c === 125) this.stack.pop();
        else if (c === 123) return this.push(top) ? i + 1 : to;
        else if (c === 96) return this.push(F.Backtick) ? i + 1 : to;
        else if (c === 34) return this.push(F.Dq) ? i + 1 : to;
        else if (c === 39 && top === F.Param) return this.skipSingle(i + 1, to);
        return i + 1;
      case F.Arith:
      case F.ArithParen:
      case F.ArithBracket:
        if (ARITH_OPERATOR.has(c) && !this.count()) return to;
        if (c === 41) {
          if (top === F.ArithParen) this.stack.pop();
          else if (top === F.Arith && this.src.charCodeAt(i + 1) === 41) {
            this.stack.pop();
            return i + 2;
          }
        } else if (c === 93 && top === F.ArithBracket) this.stack.pop();
        else if (c === 40) return this.push(F.ArithParen) ? i + 1 : to;
        else if (c === 91 && top === F.ArithBracket) return this.push(F.ArithBracket) ? i + 1 : to;
        else if (c === 96) return this.push(F.Backtick) ? i + 1 : to;
        else if (c === 34) return this.push(F.Dq) ? i + 1 : to;
        else if (c === 39) return this.skipSingle(i + 1, to);
        return i + 1;
      default: // Heredoc
        if (c === 96) return this.push(F.Backtick) ? i + 1 : to;
        return i + 1;
    }
  }

  private keyword(i: number, to: number, word: string): boolean {
    if (!this.src.startsWith(word, i)) return false;
    const after = i + word.length;
    return after >= to || isBreak(this.src.charCodeAt(after));
  }

  private skipSingle(from: number, to: number): number {
    const end = this.src.indexOf("'", from);
    return end < 0 || end >= to ? to : end + 1;
  }

  private skipAnsiC(from: number, to: number): number {
    for (let i = from; i < to; i++) {
      const c = this.src.charCodeAt(i);
      if (c === 92) i++;
      else if (c === 39) return i + 1;
    }
    return to;
  }

  /** After `<<` or `<<-`: reads the delimiter word and queues the body for the next newline. */
  private heredocOperator(from: number, to: number): number {
    const src = this.src;
    let i = from;
    const stripTabs = src.charCodeAt(i) === 45; /* - */
    if (stripTabs) i++;
    while (i < to && isBlank(src.charCodeAt(i))) i++;
    let delimiter = '';
    let quoted = false;
    while (i < to) {
      const c = src.charCodeAt(i);
      if (isBreak(c)) break;
      if (c === 39 || c === 34) {
        quoted = true;
        const end = src.indexOf(src[i]!, i + 1);
        const stop = end < 0 || end >= to ? to : end;
        delimiter += src.slice(i + 1, stop).replace(c === 34 ? /\\(.)/g : /$^/, '$1');
        i = stop + 1;
        continue;
      }
      if (c === 92) {
        quoted = true;
        delimiter += src[i + 1] ?? '';
        i += 2;
        continue;
      }
      delimiter += src[i];
      i++;
    }
    if (delimiter !== '' && this.count()) this.pending.push({ delimiter, stripTabs, quoted });
    return i;
  }

  /** At the start of a line after heredoc operators: skips their bodies, scanning unquoted ones. */
  private heredocBodies(from: number, to: number): number {
    const bodies = this.pending;
    this.pending = [];
    let i = from;
    for (const doc of bodies) {
      const start = i;
      let end = to;
      while (i < to) {
        let lineEnd = this.src.indexOf('\n', i);
        if (lineEnd < 0 || lineEnd > to) lineEnd = to;
        let lineStart = i;
        if (doc.stripTabs) while (lineStart < lineEnd && this.src.charCodeAt(lineStart) === 9) lineStart++;
        const isDelimiter =
          lineEnd - lineStart === doc.delimiter.length && this.src.startsWith(doc.delimiter, lineStart);
        if (isDelimiter) {
          end = i;
          i = Math.min(lineEnd + 1, to);
          break;
        }
        i = lineEnd + 1;
      }
      if (i > to) i = to;
      if (!doc.quoted && this.reject === undefined) this.scan(start, end, F.Heredoc);
    }
    return i;
  }
}
