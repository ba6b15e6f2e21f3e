// Splits a shell script into the simple commands it can run, using unbash (a real bash parser).
// Every Command node anywhere in the tree becomes a part: lists, pipelines, subshells, groups,
// control flow, function bodies, and command/process substitutions in arguments, strings,
// assignments, redirect targets and unquoted heredocs. Wrappers are unwrapped, `sh -c` and
// `eval` of literal text are parsed recursively, `find -exec` commands become parts.
import { forEachChild, parse, type Command, type Redirection, type SyntaxNode } from 'unbash';
import { ParseCache } from './cache';
import { MAX_ELEMENTS, precheck } from './precheck';
import type { ParsedCommand, ShellPart, ShellWord } from './types';
import { analyzeWord, basename, displayWords, hasUnquotedGlob, literalWord } from './words';
import { findExecCommands, isPrivilegedWrapper, isShell, isWrapper, shellInvocation, unwrapOnce } from './wrappers';
import { codePointLabel, findInvisible } from './scan';

/** Longest command the engine inspects; longer ones are opaque (asked, never allowed). */
export const MAX_COMMAND_LENGTH = 100_000;
const MAX_DEPTH = 8;
const MAX_PARTS = MAX_ELEMENTS;

/** Assignments that change which program runs or how: never allowed by a command allow rule. */
const RISKY_ENV = new Set([
  'PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH',
  'BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'IFS', 'PROMPT_COMMAND', 'GIT_SSH_COMMAND',
  'GIT_EXEC_PATH', 'GIT_CONFIG_GLOBAL', 'NODE_OPTIONS', 'PYTHONPATH', 'PYTHONSTARTUP', 'PERL5OPT', 'RUBYOPT',
]);

const SYSTEM_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin', '/usr/local/sbin']);

function isTrustedProgram(program: string): boolean {
  const slash = program.lastIndexOf('/');
  return slash < 0 || SYSTEM_DIRS.has(program.slice(0, slash));
}

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);
const RISKY_ASSIGNMENT = new RegExp(`^(${[...RISKY_ENV].join('|')})\\+?=`);

const cache = new ParseCache(2048, 16_000_000);

/** The parts of a shell command; each distinct command is analysed once (failures too). Never throws. */
export function parseCommand(source: string): ParsedCommand {
  if (source.length > MAX_COMMAND_LENGTH) {
    // Not cached: the check is free, and keeping the text would pin it.
    return { parts: [opaquePart(`${source.slice(0, 200)}…`, 'the command is too long to inspect')], hasSubstitution: hasSubstitution(source) };
  }
  const cached = cache.get(source);
  if (cached) return cached;
  let result: ParsedCommand;
  try {
    result = analyze(source);
  } catch (error) {
    result = { parts: [opaquePart(source.slice(0, 200), `the shell analysis failed (${(error as Error)?.message ?? String(error)})`)], hasSubstitution: hasSubstitution(source) };
  }
  cache.set(source, result);
  return result;
}

function hasSubstitution(source: string): boolean {
  return /\$\((?!\()|`|[<>]\(/.test(source);
}

function analyze(source: string): ParsedCommand {
  const state: State = { parts: [], hasSubstitution: hasSubstitution(source), elements: 0 };
  collectScript(source, state, 0, [], -1);
  if (state.truncated) state.parts.push(opaquePart(source.slice(0, 200), `it has more than ${MAX_PARTS} commands`));
  // A risky assignment affects every later command of the script: none is allowable by a command rule.
  const riskyEnv = state.riskyEnv;
  if (riskyEnv) state.parts = state.parts.map((part) => (part.riskyEnv ? part : { ...part, riskyEnv }));
  return { parts: state.parts, hasSubstitution: state.hasSubstitution };
}

interface State {
  parts: ShellPart[];
  hasSubstitution: boolean;
  /** A risky variable assigned by a statement of its own (`PATH=/tmp; ls`, `export LD_PRELOAD=x`). */
  riskyEnv?: string;
  truncated?: boolean;
  /** Syntax elements counted so far, nested scripts included (bounded by MAX_ELEMENTS). */
  elements: number;
}

function opaquePart(text: string, reason: string, views: ShellWord[][] = []): ShellPart {
  const words = text.trim() === '' ? [] : [literalWord(text)];
  return {
    words,
    views: [...views, words],
    text,
    program: '',
    opaque: reason,
    writesFile: false,
    openArgs: false,
    shellFromStdin: false,
  };
}

function collectScript(source: string, state: State, depth: number, views: ShellWord[][], privileged: number): void {
  if (depth > MAX_DEPTH) {
    state.parts.push(opaquePart(source, 'shell nesting is too deep to inspect', views));
    return;
  }
  const invisible = findInvisible(source);
  if (invisible >= 0) state.parts.push(opaquePart(source, `it contains an invisible or control character (${codePointLabel(source, invisible)})`, views));
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
  const visit = (node: SyntaxNode, writes: boolean): void => {
    if (state.parts.length > MAX_PARTS) {
      state.truncated = true;
      return;
    }
    if ('errors' in node && node.errors && node.errors.length > 0) {
      const first = node.errors[0]!;
      state.parts.push(opaquePart(source, `it does not parse as bash (${first.message})`, views));
    }
    if (node.type === 'CommandExpansion' || node.type === 'ProcessSubstitution' || node.type === 'ArithmeticCommandExpansion') {
      state.hasSubstitution = true;
    }
    let childWrites = writes;
    if (node.type === 'Redirected') childWrites = writes || node.redirects.some(writesToFile);
    if (node.type === 'Command') {
      collectCommand(node, writes, state, depth, views, privileged);
    }
    forEachChild(node, (child) => visit(child, childWrites));
  };
  visit(script, false);
}

function writesToFile(redirect: Redirection): boolean {
  if (redirect.type !== 'Redirect') return false;
  const target = redirect.target ? analyzeWord(redirect.target) : undefined;
  switch (redirect.operator) {
    case '<':
    case '<&':
      return false;
    case '>&':
      // `>&2`, `2>&1`, `>&-` duplicate or close descriptors; `>&file` writes a file.
      return !target || target.dynamic || !/^(\d+-?|-)$/.test(target.value);
    default:
      if (!target || target.dynamic) return true;
      return target.value !== '/dev/null';
  }
}

function collectCommand(node: Command, inheritedWrites: boolean, state: State, depth: number, views: ShellWord[][], privileged: number): void {
  const writesFile = inheritedWrites || node.redirects.some(writesToFile);
  let riskyEnv: string | undefined;
  for (const item of node.prefix) {
    if (item.type === 'Assignment' && RISKY_ENV.has(item.name)) riskyEnv = item.name;
  }
  if (riskyEnv && !node.name) state.riskyEnv = riskyEnv;
  if (!node.name) {
    if (writesFile) {
      const text = displayRedirects(node);
      state.parts.push({ words: [], views: [...views, []], text, program: '', writesFile, openArgs: false, shellFromStdin: false });
    }
    return;
  }
  const nameWord = analyzeWord(node.name);
  const words: ShellWord[] = [nameWord];
  for (const arg of node.args) {
    if (arg.type === 'Assignment') {
      // `export PATH=...`, `declare -x LD_PRELOAD=...`: the assignment outlives this command.
      if (RISKY_ENV.has(arg.name)) state.riskyEnv = arg.name;
      words.push({ value: arg.text, dynamic: true, splittable: false });
    } else {
      words.push(analyzeWord(arg));
      if (DECLARATIONS.has(nameWord.value) && RISKY_ASSIGNMENT.test(arg.value)) state.riskyEnv = arg.value.slice(0, arg.value.indexOf('='));
    }
  }
  if (nameWord.dynamic || hasUnquotedGlob(node.name)) {
    state.parts.push({
      ...partFrom(words, views, privileged, { writesFile, openArgs: false, riskyEnv }),
      opaque: 'the program name is only known at run time',
    });
    return;
  }
  expandWords(words, state, depth, views, privileged, { writesFile, openArgs: false, riskyEnv });
}

function displayRedirects(node: Command): string {
  return node.redirects.map((r) => (r.type === 'Redirect' ? `${r.operator} ${r.target?.text ?? ''}` : r.operator)).join(' ');
}

interface PartFlags {
  writesFile: boolean;
  openArgs: boolean;
  riskyEnv?: string;
  shellFromStdin?: boolean;
}

function partFrom(words: ShellWord[], views: ShellWord[][], privileged: number, flags: PartFlags): ShellPart {
  const allowWords = privileged >= 0 ? views[privileged]! : words;
  return {
    words: allowWords,
    views: [...views, words],
    text: displayWords(allowWords),
    program: allowWords[0]?.value ?? '',
    writesFile: flags.writesFile,
    openArgs: flags.openArgs,
    riskyEnv: flags.riskyEnv,
    shellFromStdin: flags.shellFromStdin ?? false,
  };
}

/** Unwraps wrappers, recurses into `sh -c` / `eval` / `find -exec`, and records the part(s). */
function expandWords(initial: ShellWord[], state: State, depth: number, outerViews: ShellWord[][], outerPrivileged: number, flags: PartFlags): void {
  let words = initial;
  const views = [...outerViews];
  let privileged = outerPrivileged;
  let openArgs = flags.openArgs;
  let riskyEnv = flags.riskyEnv;
  for (let guard = 0; guard < 64; guard++) {
    const first = words[0];
    if (!first) return;
    if (first.dynamic) {
      state.parts.push({ ...partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }), opaque: 'the program name is only known at run time' });
      return;
    }
    // A wrapper, shell or `find` is only trusted by its bare name or from a system directory:
    // `./env ls` runs whatever ./env is, so it is a program of its own.
    if (!isTrustedProgram(first.value)) break;
    const name = basename(first.value);
    if (isWrapper(name)) {
      const unwrapped = unwrapOnce(name, words);
      if (!unwrapped) break;
      if (name === 'env' && words.some((w) => !w.dynamic && (w.value === '-S' || w.value.startsWith('--split-string')))) {
        state.parts.push({ ...partFrom(words, views, privileged, flags), opaque: 'env -S splits a string into a command at run time' });
        return;
      }
      views.push(words);
      if (privileged < 0 && isPrivilegedWrapper(name)) privileged = views.length - 1;
      for (const assigned of unwrapped.assigns) if (RISKY_ENV.has(assigned)) riskyEnv = assigned;
      openArgs = openArgs || unwrapped.openArgs === true;
      words = unwrapped.inner;
      continue;
    }
    if (isShell(name)) {
      const invocation = shellInvocation(name, words);
      if (name === 'su' && privileged < 0) {
        views.push(words);
        privileged = views.length - 1;
        if (invocation.kind !== 'script') {
          state.parts.push(partFrom(words, views.slice(0, -1), privileged, { ...flags, openArgs, riskyEnv }));
          return;
        }
      }
      if (invocation.kind === 'stdin') {
        state.parts.push(partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv, shellFromStdin: true }));
        return;
      }
      if (invocation.kind === 'script') {
        const innerViews = name === 'su' ? views : [...views, words];
        const script = invocation.script;
        if (script.dynamic || invocation.foreignSyntax || openArgs) {
          const why = script.dynamic ? `${name} -c runs text that is only known at run time` : `${name} -c runs a script the engine cannot parse`;
          state.parts.push({ ...partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }), opaque: why });
          return;
        }
        collectScript(script.value, state, depth + 1, innerViews, privileged);
        return;
      }
      break;
    }
    if (name === 'eval') {
      const args = words.slice(1);
      if (args.some((w) => w.dynamic) || openArgs) {
        state.parts.push({ ...partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }), opaque: 'eval runs text that is only known at run time' });
        return;
      }
      collectScript(args.map((w) => w.value).join(' '), state, depth + 1, [...views, words], privileged);
      return;
    }
    if (name === 'find') {
      state.parts.push(partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }));
      for (const command of findExecCommands(words)) {
        expandWords(command, state, depth + 1, [...views, words], privileged, { writesFile: false, openArgs: false, riskyEnv });
      }
      return;
    }
    break;
  }
  state.parts.push(partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }));
}
