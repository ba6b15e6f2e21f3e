// One simple command: its words with quotes resolved, its redirections, the wrappers around the
// program (unwrapped so rules see what runs), `sh -c`/`eval`/`find -exec`/`trap` code (analysed
// as scripts of their own), and the builtins that evaluate their arguments.
import type { Command, Redirection } from 'unbash';
import { join, START, UNKNOWN, wrapperDir, type Dirs } from './dirs';
import { inspectBuiltin, mayBeChecked } from './builtins';
import type { State } from './state';
import type { FileAccess, ShellPart, ShellWord } from './types';
import { riskyForProgram, riskyForShell } from './env-names';
import { analyzeWord, basename, displayWords, hasUnquotedGlob } from './words';
import {
  envSplitsString,
  findExecCommands,
  isPrivilegedWrapper,
  isShell,
  isWrapper,
  shellInvocation,
  unwrapOnce,
} from './wrappers';

const SYSTEM_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin', '/usr/local/sbin']);

function isTrustedProgram(program: string): boolean {
  const slash = program.lastIndexOf('/');
  return slash < 0 || SYSTEM_DIRS.has(program.slice(0, slash));
}

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);
const ASSIGNMENT = /^([A-Za-z_]\w*)\+?=/;

/** `export X=1`, `declare -x X=1`: the assignments reach every program run after it. */
function exports(node: Command, name: string): boolean {
  if (name === 'export') return true;
  return DECLARATIONS.has(name) && node.args.some((a) => a.type === 'Word' && /^-[A-Za-z]*x/.test(a.value));
}

export function writesToFile(redirect: Redirection): boolean {
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

/** The files redirections read or write; pipes from process substitutions are not files. */
export function redirectAccesses(redirects: readonly Redirection[]): FileAccess[] {
  const accesses: FileAccess[] = [];
  for (const redirect of redirects) {
    if (redirect.type !== 'Redirect' || !redirect.target) continue;
    const word = analyzeWord(redirect.target);
    if (word.procsub) continue;
    switch (redirect.operator) {
      case '<':
        accesses.push({ mode: 'read', word });
        break;
      case '<>':
        accesses.push({ mode: 'read', word }, { mode: 'write', word });
        break;
      case '<&':
        break;
      case '>&':
        if (writesToFile(redirect)) accesses.push({ mode: 'write', word });
        break;
      default:
        accesses.push({ mode: 'write', word });
    }
  }
  return accesses;
}

const NO_ACCESSES: readonly FileAccess[] = [];

/** What a simple command inherits from the compound commands around it. */
export interface Inherited {
  /** One of them redirects output to a file. */
  writes: boolean;
  redirects: readonly FileAccess[];
}

export function collectCommand(
  node: Command,
  inherited: Inherited,
  state: State,
  depth: number,
  views: ShellWord[][],
  privileged: number,
): void {
  const writesFile = inherited.writes || node.redirects.some(writesToFile);
  const own = node.redirects.length > 0 ? redirectAccesses(node.redirects) : NO_ACCESSES;
  const redirects =
    own.length === 0 ? inherited.redirects : inherited.redirects.length === 0 ? own : [...inherited.redirects, ...own];
  const dirs = state.tracksDirs ? state.dirs : undefined;
  let riskyEnv: string | undefined;
  for (const item of node.prefix) {
    // `X=1 cmd` hands X to cmd; `X=1` alone changes the shell's variable (exported or not).
    if (item.type === 'Assignment' && (node.name ? riskyForProgram(item.name) : riskyForShell(item.name)))
      riskyEnv = item.name;
  }
  if (riskyEnv && !node.name) state.riskyEnv = riskyEnv;
  if (!node.name) {
    if (writesFile) {
      const text = displayRedirects(node);
      state.parts.push({
        words: [],
        views: [...views, []],
        text,
        program: '',
        writesFile,
        openArgs: false,
        shellFromStdin: false,
        redirects,
        dirs,
      });
    }
    return;
  }
  const nameWord = analyzeWord(node.name);
  const words: ShellWord[] = [nameWord];
  // Behind a wrapper (`builtin printf -v ...`) any word may be the builtin.
  const builtin = mayBeChecked(nameWord) || (!nameWord.dynamic && isWrapper(basename(nameWord.value)));
  const risky = exports(node, nameWord.value) ? riskyForProgram : riskyForShell;
  for (const arg of node.args) {
    if (arg.type === 'Assignment') {
      // `export PATH=...`, `declare -x LD_PRELOAD=...`: the assignment outlives this command.
      if (risky(arg.name)) state.riskyEnv = arg.name;
      words.push({ value: arg.text, dynamic: true, splittable: false });
    } else {
      const word = analyzeWord(arg);
      words.push(word);
      const assigned = DECLARATIONS.has(nameWord.value) ? ASSIGNMENT.exec(arg.value)?.[1] : undefined;
      if (assigned !== undefined && risky(assigned)) state.riskyEnv = assigned;
    }
  }
  // The syntax nodes of the words, for the builtins that evaluate their arguments.
  if (builtin) words.forEach((word, i) => state.nodes.set(word, i === 0 ? node.name! : node.args[i - 1]!));
  if (nameWord.dynamic || hasUnquotedGlob(node.name)) {
    state.parts.push({
      ...partFrom(words, views, privileged, { writesFile, openArgs: false, riskyEnv, redirects, dirs }),
      opaque: 'the program name is only known at run time',
    });
    return;
  }
  expandWords(words, state, depth, views, privileged, { writesFile, openArgs: false, riskyEnv, redirects, dirs });
}

function displayRedirects(node: Command): string {
  return node.redirects
    .map((r) => (r.type === 'Redirect' ? `${r.operator} ${r.target?.text ?? ''}` : r.operator))
    .join(' ');
}

interface PartFlags {
  writesFile: boolean;
  openArgs: boolean;
  riskyEnv?: string;
  shellFromStdin?: boolean;
  redirects?: readonly FileAccess[];
  dirs?: Dirs;
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
    redirects: flags.redirects,
    dirs: flags.dirs,
  };
}

/** Unwraps wrappers, recurses into `sh -c` / `eval` / `find -exec`, and records the part(s). */
function expandWords(
  initial: ShellWord[],
  state: State,
  depth: number,
  outerViews: ShellWord[][],
  outerPrivileged: number,
  outerFlags: PartFlags,
): void {
  let flags = outerFlags;
  let words = initial;
  const views = [...outerViews];
  let privileged = outerPrivileged;
  let openArgs = flags.openArgs;
  let riskyEnv = flags.riskyEnv;
  for (let guard = 0; guard < 64; guard++) {
    const first = words[0];
    if (!first) return;
    if (first.dynamic) {
      state.parts.push({
        ...partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }),
        opaque: 'the program name is only known at run time',
      });
      return;
    }
    // A wrapper, shell or `find` is only trusted by its bare name or from a system directory:
    // `./env ls` runs whatever ./env is, so it is a program of its own.
    if (!isTrustedProgram(first.value)) break;
    const name = basename(first.value);
    if (isWrapper(name)) {
      // Before unwrapping: `env -S 'cmd'` leaves no command word behind for unwrapOnce to find.
      if (name === 'env' && envSplitsString(words)) {
        state.parts.push({
          ...partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }),
          opaque: 'env -S splits a string into a command at run time',
        });
        return;
      }
      const unwrapped = unwrapOnce(name, words);
      if (!unwrapped) break;
      const dir = wrapperDir(name, words);
      if (dir !== undefined) flags = { ...flags, dirs: join(flags.dirs ?? START, dir) };
      views.push(words);
      if (privileged < 0 && isPrivilegedWrapper(name)) privileged = views.length - 1;
      for (const assigned of unwrapped.assigns) if (riskyForProgram(assigned)) riskyEnv = assigned;
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
          const why = script.dynamic
            ? `${name} -c runs text that is only known at run time`
            : `${name} -c runs a script the engine cannot parse`;
          state.parts.push({ ...partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }), opaque: why });
          return;
        }
        // Another process: its `cd` does not change where later parts run.
        inScript(state, flags.dirs, () => state.script(script.value, depth + 1, innerViews, privileged), true);
        return;
      }
      break;
    }
    if (name === 'eval') {
      const args = words.slice(1);
      if (args.some((w) => w.dynamic) || openArgs) {
        state.parts.push({
          ...partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }),
          opaque: 'eval runs text that is only known at run time',
        });
        return;
      }
      inScript(
        state,
        flags.dirs,
        () => state.script(args.map((w) => w.value).join(' '), depth + 1, [...views, words], privileged),
        false,
      );
      return;
    }
    if (name === 'find') {
      state.parts.push(partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }));
      for (const { command, inFoundDir } of findExecCommands(words)) {
        // -execdir and -okdir run in the directory of each file found.
        const dirs = inFoundDir ? UNKNOWN : flags.dirs;
        expandWords(command, state, depth + 1, [...views, words], privileged, {
          writesFile: false,
          openArgs: false,
          riskyEnv,
          dirs,
        });
      }
      return;
    }
    break;
  }
  state.parts.push(partFrom(words, views, privileged, { ...flags, openArgs, riskyEnv }));
  const trapped = state.facts && inspectBuiltin(words, state.nodes, state.facts);
  // A trap's action is code bash runs later, wherever the command is then: its commands are parts too.
  if (trapped)
    inScript(
      state,
      state.tracksDirs ? UNKNOWN : undefined,
      () => state.script(trapped.value, depth + 1, [...views, words], privileged),
      true,
    );
}

/** Runs a nested script starting in `dirs`; `restore`: its directory changes do not outlive it. */
function inScript(state: State, dirs: Dirs | undefined, run: () => void, restore: boolean): void {
  const outer = state.dirs;
  if (dirs !== undefined) state.dirs = dirs;
  run();
  if (restore) state.dirs = outer;
}
