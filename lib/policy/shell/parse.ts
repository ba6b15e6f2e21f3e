// Splits a shell script into the simple commands it can run, using unbash (a real bash parser).
// Every Command node anywhere in the tree becomes a part: lists, pipelines, subshells, groups,
// control flow, function bodies, and command/process substitutions in arguments, strings,
// assignments, redirect targets and unquoted heredocs. Wrappers are unwrapped, `sh -c` and
// `eval` of literal text are parsed recursively, `find -exec` commands become parts.
import { forEachChild, parse, type Assignment, type Command, type SyntaxNode, type Word } from 'unbash';
import { ParseCache } from './cache';
import type { AndOr } from 'unbash';
import { collectCommand, redirectAccesses, writesToFile } from './command';
import { cdTarget, join, mayChangeDir, START, union, UNKNOWN, UNKNOWN_DIR, type Dirs } from './dirs';
import { riskyForShell } from './env-names';
import { arithmeticFor, descriptorWords, inspectNode, loopVariable, recordAssignment } from './evalctx';
import { ScriptFacts } from './facts';
import { MAX_ELEMENTS, precheck } from './precheck';
import { codePointLabel, findInvisible } from './scan';
import { opaquePart, type State } from './state';
import type { FileAccess, ParsedCommand, ShellPart, ShellWord } from './types';
import { analyzeWord } from './words';

/** Longest command the engine inspects; longer ones are opaque (asked, never allowed). */
export const MAX_COMMAND_LENGTH = 100_000;
const MAX_DEPTH = 8;
const MAX_PARTS = MAX_ELEMENTS;

const cache = new ParseCache(2048, 16_000_000);

/** The parts of a shell command; each distinct command is analysed once (failures too). Never throws. */
export function parseCommand(source: string): ParsedCommand {
  if (source.length > MAX_COMMAND_LENGTH) {
    // Not cached: the check is free, and keeping the text would pin it.
    return {
      parts: [opaquePart(`${source.slice(0, 200)}…`, 'the command is too long to inspect')],
      hasSubstitution: hasSubstitution(source),
    };
  }
  const cached = cache.get(source);
  if (cached) return cached;
  let result: ParsedCommand;
  try {
    result = analyze(source);
  } catch (error) {
    result = {
      parts: [
        opaquePart(source.slice(0, 200), `the shell analysis failed (${(error as Error)?.message ?? String(error)})`),
      ],
      hasSubstitution: hasSubstitution(source),
    };
  }
  cache.set(source, result);
  return result;
}

function hasSubstitution(source: string): boolean {
  return /\$\((?!\()|`|[<>]\(/.test(source);
}

function analyze(source: string): ParsedCommand {
  const state = new Analysis(hasSubstitution(source));
  state.tracksDirs = mayChangeDir(source);
  state.cdpath = source.includes('CDPATH');
  collectScript(source, state, 0, [], -1);
  // With dotglob (or GLOBIGNORE) set, `*` also matches names that start with a dot.
  if (/dotglob|GLOBIGNORE/.test(source)) state.parts = state.parts.map((part) => ({ ...part, dotglob: true }));
  if (state.truncated) state.parts.push(opaquePart(source.slice(0, 200), `it has more than ${MAX_PARTS} commands`));
  // A risky assignment affects every later command of the script: none is allowable by a command rule.
  const riskyEnv = state.riskyEnv;
  if (riskyEnv) state.parts = state.parts.map((part) => (part.riskyEnv ? part : { ...part, riskyEnv }));
  return { parts: state.parts, hasSubstitution: state.hasSubstitution };
}

class Analysis implements State {
  parts: ShellPart[] = [];
  riskyEnv?: string;
  truncated?: boolean;
  elements = 0;
  facts?: ScriptFacts;
  readonly nodes = new Map<ShellWord, Word | Assignment>();
  tracksDirs = false;
  cdpath = false;
  dirs: Dirs = START;

  constructor(public hasSubstitution: boolean) {}

  script(source: string, depth: number, views: ShellWord[][], privileged: number): void {
    collectScript(source, this, depth, views, privileged);
  }
}

/** Nodes whose body may not run, or runs in a subshell: what it sets is not surely set after it. */
const SCOPED = new Set([
  'If',
  'While',
  'Case',
  'Function',
  'Subshell',
  'Coproc',
  'CommandExpansion',
  'ProcessSubstitution',
  'ArithmeticCommandExpansion',
]);

function collectScript(source: string, state: State, depth: number, views: ShellWord[][], privileged: number): void {
  if (depth > MAX_DEPTH) {
    state.parts.push(opaquePart(source, 'shell nesting is too deep to inspect', views));
    return;
  }
  const invisible = findInvisible(source);
  if (invisible >= 0)
    state.parts.push(
      opaquePart(source, `it contains an invisible or control character (${codePointLabel(source, invisible)})`, views),
    );
  // Before parsing: the parser's time and stack grow with nesting and size.
  const shape = precheck(source, MAX_ELEMENTS - state.elements);
  state.elements += shape.elements;
  if (shape.reject) {
    state.parts.push(opaquePart(source.slice(0, 200), shape.reject, views));
    return;
  }
  let script;
  try {
    script = parse(source);
  } catch (error) {
    state.parts.push(opaquePart(source, `the shell parser failed: ${(error as Error).message}`, views));
    return;
  }
  const outerFacts = state.facts;
  state.facts = new ScriptFacts();
  try {
    new ScriptWalk(source, state, state.facts, depth, views, privileged).visit(script);
    for (const issue of state.facts.finish()) state.parts.push(opaquePart(issue.text, issue.why, views));
  } finally {
    state.facts = outerFacts;
  }
}

/** `walk[method]` bound to the walk (an unnamed function: no naming cost under tsx's keepNames). */
function callback<K extends 'visit' | 'text'>(walk: ScriptWalk, method: K): ScriptWalk[K] {
  return ((node: SyntaxNode) => walk[method](node)) as ScriptWalk[K];
}

/** Visits every node of one script in order, keeping track of what surely ran before each. */
class ScriptWalk {
  /** The simple command whose words are being visited. */
  private command: Command | undefined;
  /** The node being visited is inside a compound command redirected to a file. */
  private writes = false;
  /** The files the redirections of the compound commands around the node read or write. */
  private redirects: readonly FileAccess[] = [];
  /** The last simple command visited changed directory: where it was, and where it went. */
  private lastCd: { before: Dirs; success: Dirs } | undefined;
  // Made once per script, not per node: the walk is on the decision path.
  private readonly visitChild = callback(this, 'visit');
  private readonly textOf = callback(this, 'text');

  constructor(
    private readonly source: string,
    private readonly state: State,
    private readonly facts: ScriptFacts,
    private readonly depth: number,
    private readonly views: ShellWord[][],
    private readonly privileged: number,
  ) {}

  visit(node: SyntaxNode): void {
    const { state, facts } = this;
    if (state.parts.length > MAX_PARTS) {
      state.truncated = true;
      return;
    }
    if ('errors' in node && node.errors && node.errors.length > 0) {
      const first = node.errors[0]!;
      state.parts.push(opaquePart(this.source, `it does not parse as bash (${first.message})`, this.views));
    }
    if (
      node.type === 'CommandExpansion' ||
      node.type === 'ProcessSubstitution' ||
      node.type === 'ArithmeticCommandExpansion'
    ) {
      state.hasSubstitution = true;
    }
    const writes = this.writes;
    const redirects = this.redirects;
    if (node.type === 'Redirected') {
      this.writes = writes || node.redirects.some(writesToFile);
      const own = redirectAccesses(node.redirects);
      if (own.length > 0) this.redirects = [...redirects, ...own];
    }
    inspectNode(node, facts, this.textOf);
    const dirs = state.dirs;
    switch (node.type) {
      case 'Command': {
        collectCommand(node, { writes, redirects }, state, this.depth, this.views, this.privileged);
        descriptorWords(node, facts);
        const outer = this.command;
        this.command = node;
        forEachChild(node, this.visitChild);
        this.command = outer;
        if (state.tracksDirs) this.changeDir(node, dirs);
        break;
      }
      case 'Assignment': {
        forEachChild(node, this.visitChild);
        // A prefix of a command (`x=1 cmd`) only sets the variable for that command.
        const command = this.command;
        recordAssignment(node, facts, !command?.name || !command.prefix.includes(node));
        break;
      }
      case 'AndOr':
        if (state.tracksDirs) this.andOr(node);
        // The first command always runs; each later one may not.
        else node.commands.forEach((child, i) => (i === 0 ? this.visit(child) : this.scoped(child)));
        break;
      case 'Pipeline':
        // Each command of a pipeline runs in a subshell.
        if (node.commands.length > 1) {
          for (const child of node.commands) {
            this.scoped(child);
            state.dirs = dirs;
          }
        } else forEachChild(node, this.visitChild);
        break;
      case 'For':
      case 'Select': {
        this.loopDirs(node);
        const outer = facts.enter();
        for (const word of node.wordlist ?? []) this.visit(word);
        loopVariable(node, facts, this.textOf(node));
        // `for PATH in /tmp`: the loop assigns its variable like `PATH=/tmp` does.
        if (riskyForShell(node.name.value)) state.riskyEnv = node.name.value;
        this.visit(node.body);
        facts.leave(outer);
        break;
      }
      case 'ArithmeticFor': {
        this.loopDirs(node);
        const outer = facts.enter();
        arithmeticFor(node, facts, this.textOf(node));
        forEachChild(node, this.visitChild);
        facts.leave(outer);
        break;
      }
      default:
        if (SCOPED.has(node.type) || (node.type === 'Statement' && node.background)) {
          if (node.type === 'While') this.loopDirs(node);
          // A function body runs when it is called, wherever the command is by then.
          if (node.type === 'Function' && state.tracksDirs) state.dirs = UNKNOWN;
          this.scoped(node, true);
          if (state.tracksDirs) state.dirs = this.dirsAfter(node, dirs);
        } else forEachChild(node, this.visitChild);
    }
    this.writes = writes;
    this.redirects = redirects;
  }

  /** After a `cd`: it may have failed, so both directories are possible, unless `&&`/`||` tell (andOr). */
  private changeDir(node: Command, before: Dirs): void {
    this.lastCd = undefined;
    let words = node.name ? [node.name, ...node.args.filter((a): a is Word => a.type === 'Word')] : [];
    if (words[0] && (words[0].value === 'builtin' || words[0].value === 'command')) words = words.slice(1);
    if (!words[0] || !/^(cd|pushd|popd)$/.test(words[0].value)) return;
    let target = cdTarget(words.map(analyzeWord));
    if (target === undefined) return;
    // With CDPATH set, `cd name` may go to a directory named in it.
    if (this.state.cdpath && !/^(\/|\.|~)/.test(target)) target = UNKNOWN_DIR;
    const success = join(before, target);
    this.lastCd = { before, success };
    this.state.dirs = union(before, success);
  }

  /** `a && b || c`: each command runs in the directories the earlier ones leave on success (&&) or failure (||). */
  private andOr(node: AndOr): void {
    const { state } = this;
    let success: Dirs = state.dirs;
    let failure: Dirs = state.dirs;
    node.commands.forEach((child, i) => {
      const op = i === 0 ? undefined : node.operators[i - 1];
      if (op) state.dirs = op === '&&' ? success : failure;
      this.lastCd = undefined;
      if (i === 0) this.visit(child);
      else this.scoped(child);
      const cd = child.type === 'Command' ? this.cdOfLastCommand() : undefined;
      const childSuccess = cd ? cd.success : state.dirs;
      const childFailure = cd ? cd.before : state.dirs;
      if (op === undefined) [success, failure] = [childSuccess, childFailure];
      else if (op === '&&') [success, failure] = [childSuccess, union(failure, childFailure)];
      else [success, failure] = [union(success, childSuccess), childFailure];
    });
    state.dirs = union(success, failure);
  }

  private cdOfLastCommand(): { before: Dirs; success: Dirs } | undefined {
    return this.lastCd;
  }

  /** A loop whose body changes directory runs each pass somewhere else. */
  private loopDirs(node: SyntaxNode): void {
    if (this.state.tracksDirs && mayChangeDir(this.source.slice(node.pos, node.end))) this.state.dirs = UNKNOWN;
  }

  /** Where the command is after a compound command that may not run, or runs in a subshell. */
  private dirsAfter(node: SyntaxNode, before: Dirs): Dirs {
    const after = this.state.dirs;
    switch (node.type) {
      case 'If':
      case 'Case':
      case 'While':
        return union(before, after);
      case 'Function':
        return mayChangeDir(this.source.slice(node.pos, node.end)) ? UNKNOWN : before;
      default:
        // Subshells, substitutions, coprocesses and background commands run in processes of their own.
        return before;
    }
  }

  text(node: SyntaxNode): string {
    return this.source.slice(node.pos, Math.min(node.end, node.pos + 200));
  }

  /** Visits `node` (or, with `children`, its children) in a scope of its own. */
  private scoped(node: SyntaxNode, children = false): void {
    const outer = this.facts.enter();
    if (children) forEachChild(node, this.visitChild);
    else this.visit(node);
    this.facts.leave(outer);
  }
}
