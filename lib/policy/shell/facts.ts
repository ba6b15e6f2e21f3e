// What one script does with its variables, so the places where bash evaluates text again can be
// judged: for each variable, the worst value the script may give it (flow-insensitive, so a
// loop cannot smuggle a later value into an earlier use), and which variables are surely set at a
// point (flow-sensitive: branches, loops, subshells and pipelines do not count for what follows).
// A variable not surely set comes from the environment and may hold anything.
import { scanArith, type ArithScan } from './arith';
import { isName, Level, levelOfText, NUMERIC_SPECIALS, parameterHole, type Hole, type Template } from './template';

interface VarInfo {
  /** The worst level of a value assigned to it, apart from copies of other variables. */
  level: Level;
  /** Variables it was assigned a copy of (`x=$y`), resolved at the end. */
  copies?: Set<string>;
  /** How each assignment fares if the variable has the integer attribute. */
  uses?: IntegerUse[];
  /** INTEGER, UNSET, ASSOCIATIVE. */
  marks: number;
}

const INTEGER = 1;
const UNSET = 2;
const ASSOCIATIVE = 4;

class Scope {
  private set: Set<string> | undefined;
  constructor(readonly parent?: Scope) {}

  add(key: string): void {
    (this.set ??= new Set()).add(key);
  }

  has(key: string): boolean {
    return this.set?.has(key) === true || (this.parent?.has(key) ?? false);
  }
}

/** An assignment to a variable that may turn out to have the integer attribute. */
interface IntegerUse {
  fail?: string;
  deps: string[];
  text: string;
}

export interface Issue {
  text: string;
  why: string;
}

/** Variables whose assignments bash evaluates as arithmetic (they have the integer attribute). */
const INTEGER_SPECIALS = new Set(['RANDOM', 'SRANDOM', 'HISTCMD', 'OPTIND']);
const MAX_ISSUES = 20;

export class ScriptFacts {
  private scope = new Scope();
  // Made when first needed: most scripts assign nothing, and the walk is on the decision path.
  private vars: Map<string, VarInfo> | undefined;
  private pending: { names: string[]; max: Level; issue: Issue }[] | undefined;
  private levels: Map<string, Level> | undefined;
  /** Arrays whose subscripts were taken as strings, because surely associative where used. */
  private assocUses: Set<string> | undefined;
  readonly issues: Issue[] = [];

  /** Opens a scope whose certainties do not outlive it (a branch, loop body, subshell); pass the result to leave(). */
  enter(): Scope {
    const outer = this.scope;
    this.scope = new Scope(outer);
    return outer;
  }

  leave(outer: Scope): void {
    this.scope = outer;
  }

  issue(text: string, why: string): void {
    const clipped = clip(text);
    if (this.issues.length < MAX_ISSUES && !this.issues.some((i) => i.why === why && i.text === clipped))
      this.issues.push({ text: clipped, why });
  }

  isSet(name: string): boolean {
    return this.isSpecial(name) || name.startsWith('!') || this.scope.has(name);
  }

  /** RANDOM, LINENO, ...: always an integer when read, unless the script unsets or redeclares it. */
  private isSpecial(name: string): boolean {
    return NUMERIC_SPECIALS.has(name) && !this.marked(name, UNSET);
  }

  private marked(name: string, mark: number): boolean {
    return ((this.vars?.get(name)?.marks ?? 0) & mark) !== 0;
  }

  /** Arrays made associative anywhere have string keys; `isAssociative` says where surely. */
  markAssociative(name: string): void {
    this.scope.add(`${name}[]`);
    this.info(name).marks |= ASSOCIATIVE;
  }

  /** Surely associative here: its subscripts are strings. Judged again at the end (see finish). */
  isAssociative(name: string): boolean {
    if (!this.scope.has(`${name}[]`)) return false;
    (this.assocUses ??= new Set()).add(name);
    return true;
  }

  markInteger(name: string): void {
    this.info(name).marks |= INTEGER;
  }

  /** `unset NAME`, or a declaration without -A: RANDOM is no longer special, an array no longer surely associative. */
  markUnset(name: string): void {
    this.info(name).marks |= UNSET;
  }

  /**
   * Records an assignment of `value` (a template, or a level for values like `read` input).
   * `sure`: the variable is set from here on in this scope (not a temporary `x=1 cmd` assignment).
   */
  assign(name: string, value: Template | Level, sure: boolean, text: string): void {
    const info = this.info(name);
    if (typeof value === 'number') {
      info.level = Math.max(info.level, value) as Level;
      this.integerUse(
        info,
        value === Level.Arith ? { deps: [], text } : { fail: 'its value is read at run time', deps: [], text },
      );
    } else {
      const hole = this.valueOf(value);
      info.level = Math.max(info.level, hole.level) as Level;
      for (const copy of hole.names) (info.copies ??= new Set()).add(copy);
      this.integerUse(info, this.arithUse(value, hole, text));
    }
    if (sure) this.scope.add(name);
  }

  /** `text`, built from `t`, is evaluated as an arithmetic expression here. */
  arithmetic(t: Template, text: string): void {
    const scan = scanArith(t, this);
    if (this.check(scan, t, text)) for (const name of scan.writes) this.assign(name, Level.Arith, true, text);
  }

  /** `t` names a variable (`read NAME`, `printf -v NAME`, `test -v NAME`): a subscript is evaluated. */
  variableName(t: Template, text: string): void {
    const open = t.text.indexOf('[');
    if (open < 0) {
      this.require(t.holes, Level.Clean, text, 'the variable name is only known at run time');
      return;
    }
    const base = t.text.slice(0, open);
    const close = t.text.lastIndexOf(']');
    if (!isName(base) || close < open) {
      this.issue(text, 'a variable name with a subscript is only known at run time');
      return;
    }
    const sub: Template = { text: t.text.slice(open + 1, close), holes: t.holes };
    if (this.isAssociative(base)) {
      if (/[$`\\]/.test(sub.text))
        this.issue(text, 'bash expands the subscript of this variable name, and it holds code');
      else this.require(t.holes, Level.Clean, text, 'bash expands the subscript of this variable name');
    } else {
      this.arithmetic(sub, text);
    }
  }

  /** The value of `name` is expanded again: as a prompt string (`${x@P}`) or a name (`${!x}`). */
  reexpanded(name: string, text: string, why: string): void {
    this.require([parameterHole(name)], Level.Clean, text, why);
  }

  /** Holes whose values must be at most `max`. Unset variables fail now, the rest at the end. */
  require(holes: readonly Hole[], max: Level, text: string, why: string): boolean {
    const names: string[] = [];
    for (const hole of holes) {
      if (hole.level > max || (hole.names.length > 0 && hole.floor > max)) {
        this.issue(text, `${why}, and a value in it is not provably inert`);
        return false;
      }
      for (const name of hole.names) {
        if (!this.isSet(name)) {
          this.issue(text, `${why}, and $${name} is not set by the command`);
          return false;
        }
        names.push(name); // a special is judged at the end too: a later `unset` in a loop counts
      }
    }
    if (names.length > 0) (this.pending ??= []).push({ names, max, issue: { text: clip(text), why } });
    return true;
  }

  /** Issues found once every assignment is known. */
  finish(): Issue[] {
    for (const { names, max, issue } of this.pending ?? []) {
      const bad = names.find((name) => this.levelOf(name) > max);
      if (bad) this.issue(issue.text, `${issue.why}, and $${bad} may hold code`);
    }
    // Unset or redeclared anywhere (a loop, a function's `local`), the array may be indexed where used.
    for (const name of this.assocUses ?? []) {
      if (this.marked(name, UNSET))
        this.issue(
          `\${${name}[...]}`,
          `$${name} is unset or redeclared, so bash may evaluate its subscripts as arithmetic`,
        );
    }
    for (const [name, info] of this.vars ?? []) {
      if (!this.isInteger(name, info)) continue;
      for (const use of info.uses ?? []) {
        const bad = use.fail ?? use.deps.find((dep) => this.levelOf(dep) > Level.Arith);
        if (bad)
          this.issue(
            use.text,
            `${name} is an integer variable: bash evaluates what is assigned to it as arithmetic, and ${use.fail ? bad : `$${bad} may hold code`}`,
          );
      }
    }
    return this.issues;
  }

  private check(scan: ArithScan, t: Template, text: string): boolean {
    const why = 'bash evaluates this as arithmetic';
    if (scan.fail) {
      this.issue(text, `${why}, and ${scan.fail}`);
      return false;
    }
    for (const read of scan.reads) {
      if (!this.require([parameterHole(read)], Level.Arith, text, why)) return false;
    }
    for (const { index, max } of scan.holes) {
      if (!this.require([t.holes[index]!], max, text, why)) return false;
    }
    return true;
  }

  /** How an assignment of `t` (whose value is `value`) fares if the variable has the integer attribute. */
  private arithUse(t: Template, value: Hole, text: string): IntegerUse {
    if (value.level === Level.Arith) return { deps: value.names, text };
    if (value.level === Level.Unknown) return { fail: 'its value may hold code', deps: [], text };
    const scan = scanArith(t, this);
    if (scan.fail) return { fail: scan.fail, deps: [], text };
    const deps: string[] = [];
    const holes = [...scan.reads.map((name) => parameterHole(name)), ...scan.holes.map((h) => t.holes[h.index]!)];
    for (const hole of holes) {
      if (hole.level > Level.Arith || (hole.names.length > 0 && hole.floor > Level.Arith))
        return { fail: 'its value is not an integer', deps, text };
      for (const name of hole.names) {
        if (!this.isSet(name)) return { fail: `$${name} is not set by the command`, deps, text };
        deps.push(name);
      }
    }
    return { deps, text };
  }

  private integerUse(info: VarInfo, use: IntegerUse): void {
    const uses = (info.uses ??= []);
    if (uses.length < 64) uses.push(use);
    else uses[63] = { fail: 'it is assigned too often to follow', deps: [], text: use.text };
  }

  private isInteger(name: string, info: VarInfo): boolean {
    return (info.marks & INTEGER) !== 0 || INTEGER_SPECIALS.has(name);
  }

  /** A template's value as one hole; copies of unset variables are unknown. */
  private valueOf(t: Template): Hole {
    let level = levelOfText(t.text.replace(/[\ue000-\uf8ff]/g, ''));
    const names: string[] = [];
    for (const hole of t.holes) {
      level = Math.max(level, hole.level) as Level;
      if (hole.names.length === 0) continue;
      level = Math.max(level, hole.floor) as Level;
      for (const name of hole.names) {
        if (!this.isSet(name)) level = Level.Unknown;
        else names.push(name);
      }
    }
    return { level, names, floor: Level.Arith };
  }

  private info(name: string): VarInfo {
    const vars = (this.vars ??= new Map());
    let info = vars.get(name);
    if (!info) vars.set(name, (info = { level: Level.Arith, marks: 0 }));
    return info;
  }

  /** The worst value a variable may hold, copies resolved (once every assignment is known). */
  private levelOf(name: string): Level {
    this.levels ??= this.resolveLevels();
    return this.levels.get(name) ?? this.ownLevel(name);
  }

  /** A variable's level without its copies. */
  private ownLevel(name: string, info = this.vars?.get(name)): Level {
    if (name.startsWith('!')) return this.marked(name.slice(1), ASSOCIATIVE) ? Level.Unknown : Level.Arith;
    if (this.isSpecial(name)) return Level.Arith;
    if (!info) return Level.Unknown;
    // An integer variable holds the result of evaluating what was assigned, which finish() checks.
    if (this.isInteger(name, info)) return Level.Arith;
    return info.level;
  }

  /**
   * Levels with copies (`x=$y`) followed to a fixed point: a level only rises, at most twice per
   * variable, so this is linear in variables and copies, however the copies branch or cycle.
   */
  private resolveLevels(): Map<string, Level> {
    const levels = new Map<string, Level>();
    const readers = new Map<string, string[]>();
    const queue: string[] = [];
    for (const [name, info] of this.vars ?? []) {
      levels.set(name, this.ownLevel(name, info));
      queue.push(name);
      if (this.isSpecial(name) || this.isInteger(name, info)) continue;
      for (const copy of info.copies ?? []) {
        if (!levels.has(copy) && !this.vars?.has(copy)) levels.set(copy, this.ownLevel(copy));
        const list = readers.get(copy);
        if (list) list.push(name);
        else readers.set(copy, [name]);
      }
    }
    for (const name of readers.keys()) if (!this.vars?.has(name)) queue.push(name);
    while (queue.length > 0) {
      const name = queue.pop()!;
      const level = levels.get(name)!;
      for (const reader of readers.get(name) ?? []) {
        if (levels.get(reader)! < level) {
          levels.set(reader, level);
          queue.push(reader);
        }
      }
    }
    return levels;
  }
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
