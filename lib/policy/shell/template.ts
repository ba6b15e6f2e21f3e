// A word as bash will see it after expansion, for the places where bash evaluates that text
// again (arithmetic, subscripts, names given to builtins, prompt strings): literal text stays,
// each expansion becomes a hole (one private-use character) that says what it may hold.
import type { ArithmeticExpression, ArithmeticWord, ParameterExpansionPart, Word, WordPart } from 'unbash';

/** What a value may hold, from safe to unsafe. */
export const enum Level {
  /** Digits, arithmetic operators and integer literals (`0x1f`, `16#ff`): no names, no code. */
  Arith = 0,
  /** Text without `$`, backticks, backslashes or `[`: names at most, never code or a subscript. */
  Clean = 1,
  /** Anything, or not provably better. */
  Unknown = 2,
}

/**
 * An expansion's possible values: at least `level`, and for each variable in `names` its own level
 * (at least `floor`). A variable must also be set by the script before the expansion: from the
 * environment it could hold anything. `!a` stands for the keys of the array `a`.
 */
export interface Hole {
  level: Level;
  names: string[];
  floor: Level;
}

export interface Template {
  /** Literal text, with U+E000 + i standing for hole i. */
  text: string;
  holes: Hole[];
}

export const HOLE_BASE = 0xe000;
const MAX_HOLES = 0x1000;
const PRIVATE_USE = /[\ue000-\uf8ff]/;

const ARITH_TEXT = /^[\s0-9+\-*/%<>=!&|^~?:,()]*$/;
const INTEGER = /^\s*[-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+#[0-9a-zA-Z@_]+|[0-9]+)\s*$/;
const CODE_CHARS = /[$`\\[]/;

/** The level of literal text (as a whole value, e.g. of an assignment). */
export function levelOfText(text: string): Level {
  if (ARITH_TEXT.test(text) || INTEGER.test(text)) return Level.Arith;
  return CODE_CHARS.test(text) || PRIVATE_USE.test(text) ? Level.Unknown : Level.Clean;
}

/** Parameters bash keeps numeric: reading one gives an integer unless the script unsets it. */
export const NUMERIC_SPECIALS = new Set([
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'LINENO',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'EPOCHSECONDS',
  'BASH_SUBSHELL',
  'OPTIND',
  'HISTCMD',
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isName(text: string): boolean {
  return NAME.test(text);
}

const fixed = (level: Level): Hole => ({ level, names: [], floor: Level.Arith });

/** The hole for `$name` / `${name}`. */
export function parameterHole(name: string, floor: Level = Level.Arith): Hole {
  if (name === '?' || name === '#' || name === '$' || name === '!') return fixed(Level.Arith);
  if (name === '-') return fixed(Level.Clean);
  if (!NAME.test(name)) return fixed(Level.Unknown); // $0, $1, $@, $*, $_ and anything odd
  return { level: Level.Arith, names: [name], floor };
}

function merge(into: Hole, other: Hole, floor: Level): Hole {
  return {
    level: Math.max(into.level, other.level) as Level,
    names: [...into.names, ...other.names],
    floor: Math.max(into.floor, other.floor, floor) as Level,
  };
}

class Builder {
  text = '';
  holes: Hole[] = [];

  literal(value: string): void {
    if (PRIVATE_USE.test(value)) this.hole(fixed(Level.Unknown));
    else this.text += value;
  }

  hole(hole: Hole): void {
    if (this.holes.length >= MAX_HOLES) hole = fixed(Level.Unknown);
    this.text += String.fromCharCode(HOLE_BASE + Math.min(this.holes.length, MAX_HOLES - 1));
    this.holes.push(hole);
  }

  parts(parts: readonly WordPart[], glob: boolean): void {
    for (const part of parts) this.part(part, glob);
  }

  part(part: WordPart, glob: boolean): void {
    switch (part.type) {
      case 'Literal':
      case 'SingleQuoted':
      case 'AnsiCQuoted':
        this.literal(part.value);
        return;
      case 'Glob':
      case 'ExtendedGlob':
      case 'BraceExpansion':
        // Pathname and brace expansion make words the file system (or the braces) choose.
        if (glob) this.hole(fixed(Level.Unknown));
        else this.literal(part.text);
        return;
      case 'DoubleQuoted':
      case 'LocaleString':
        this.parts(part.parts, false);
        return;
      case 'SimpleExpansion':
        this.hole(parameterHole(part.text.slice(1)));
        return;
      case 'ParameterExpansion':
        this.hole(expansionHole(part));
        return;
      case 'ArithmeticExpansion':
        this.hole(fixed(Level.Arith));
        return;
      default: // command and process substitution: output of a program
        this.hole(fixed(Level.Unknown));
    }
  }
}

/** What `${...}` may produce. The contexts inside it (subscript, offset, @P) are checked apart. */
function expansionHole(p: ParameterExpansionPart): Hole {
  const op = p.operation;
  if (p.prefix === '#' && !op) return fixed(Level.Arith);
  if (p.prefix === '!') {
    if (op?.type === 'Names') return fixed(Level.Clean);
    // `${!a[@]}`: the keys, integers unless the script makes `a` associative (see ScriptFacts).
    if (p.index?.value === '@' || p.index?.value === '*')
      return { level: Level.Arith, names: [`!${p.parameter}`], floor: Level.Arith };
    return fixed(Level.Unknown);
  }
  const base = parameterHole(p.parameter);
  if (!op) return base;
  switch (op.type) {
    case 'Default': {
      const operand = wordHole(op.operand);
      if (op.operator === '+' || op.operator === ':+') return operand;
      if (op.operator === '?' || op.operator === ':?') return base;
      return merge(base, operand, Level.Arith);
    }
    case 'Slice':
      return { ...base, floor: Level.Clean };
    case 'Transform':
      return op.operand.value === 'P'
        ? fixed(Level.Unknown)
        : { ...base, floor: Level.Clean, level: Math.max(base.level, Level.Clean) as Level };
    case 'Replace':
      return merge({ ...base, floor: Level.Clean }, wordHole(op.replacement), Level.Clean);
    default:
      return { ...base, floor: Level.Clean, level: Math.max(base.level, Level.Clean) as Level };
  }
}

/** A whole word folded into one hole (for `${x:-word}` operands). */
function wordHole(word: Word): Hole {
  return valueHole(templateOf(word, false));
}

/** The template of a word; `glob`: the word also undergoes pathname and brace expansion. */
export function templateOf(word: Word | ArithmeticWord, glob: boolean): Template {
  const builder = new Builder();
  if (word.parts && word.parts.length > 0) builder.parts(word.parts, glob);
  else builder.literal(word.value);
  return { text: builder.text, holes: builder.holes };
}

/** An arithmetic expression as text again, operators kept, so assignments can be told from reads. */
export function arithmeticTemplate(expression: ArithmeticExpression): Template {
  const builder = new Builder();
  const walk = (e: ArithmeticExpression): void => {
    switch (e.type) {
      case 'ArithmeticBinary':
        walk(e.left);
        builder.text += ` ${e.operator} `;
        walk(e.right);
        return;
      case 'ArithmeticUnary':
        if (e.prefix) builder.text += ` ${e.operator}`;
        walk(e.operand);
        if (!e.prefix) builder.text += `${e.operator} `;
        return;
      case 'ArithmeticTernary':
        walk(e.test);
        builder.text += ' ? ';
        walk(e.consequent);
        builder.text += ' : ';
        walk(e.alternate);
        return;
      case 'ArithmeticGroup':
        builder.text += '(';
        walk(e.expression);
        builder.text += ')';
        return;
      case 'ArithmeticWord':
        if (e.parts && e.parts.length > 0) builder.parts(e.parts, false);
        else builder.literal(e.value);
        return;
      default: // `$(...)` inside the expression: its output is evaluated
        builder.hole(fixed(Level.Unknown));
    }
  };
  walk(expression);
  return { text: builder.text, holes: builder.holes };
}

/** A template of literal text only. */
export function literalTemplate(text: string): Template {
  const builder = new Builder();
  builder.literal(text);
  return { text: builder.text, holes: builder.holes };
}

export function isHole(code: number): boolean {
  return code >= HOLE_BASE && code < HOLE_BASE + MAX_HOLES;
}

/** The level a template has as a whole value: its literal text's and its holes' (names still to resolve). */
export function valueHole(t: Template): Hole {
  let hole: Hole = fixed(levelOfText(t.text.replace(/[\ue000-\uf8ff]/g, '')));
  for (const h of t.holes) hole = merge(hole, h, Level.Arith);
  return hole;
}
