// Known command wrappers: programs that run another command given in their arguments.
// `unwrapOnce` strips one wrapper and its options, so rules see the command that really runs.
import type { ShellWord } from './types';

export interface Unwrapped {
  inner: ShellWord[];
  /** Environment names the wrapper assigns (env NAME=VALUE, sudo NAME=VALUE). */
  assigns: string[];
  /** The wrapper appends arguments at run time (xargs). */
  openArgs?: boolean;
}

interface WrapperSpec {
  /** Short options that take an argument. */
  shortWithArg?: string;
  /** Long options (without `--`) that take an argument when not written `--opt=value`. */
  longWithArg?: string[];
  /** Positional words to skip after the options (timeout's duration). */
  positionals?: number;
  /** NAME=VALUE words after the options are assignments. */
  assignments?: boolean;
  /** Numeric short options like nice's `-10`. */
  numericFlags?: boolean;
  /** Short options whose argument may only be attached (xargs -i[R], -e[EOF], -l[N]). */
  attachedOnly?: string;
  openArgs?: boolean;
  /** Grants privileges: allow rules see the wrapper invocation, not only the inner command. */
  privileged?: boolean;
  /** Short options after which there is no command to run (sudo -l, command -v). */
  noCommandFlags?: string;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  env: { shortWithArg: 'uCS', longWithArg: ['unset', 'chdir', 'split-string'], assignments: true },
  command: { noCommandFlags: 'vV' },
  builtin: {},
  exec: { shortWithArg: 'a' },
  nohup: {},
  nice: { shortWithArg: 'n', longWithArg: ['adjustment'], numericFlags: true },
  timeout: { shortWithArg: 'sk', longWithArg: ['signal', 'kill-after'], positionals: 1 },
  stdbuf: { shortWithArg: 'ioe', longWithArg: ['input', 'output', 'error'] },
  time: { shortWithArg: 'fo', longWithArg: ['format', 'output'] },
  sudo: {
    shortWithArg: 'ugCDhprtTUc',
    longWithArg: [
      'user',
      'group',
      'close-from',
      'chdir',
      'host',
      'prompt',
      'role',
      'type',
      'command-timeout',
      'other-user',
      'chroot',
    ],
    assignments: true,
    privileged: true,
    noCommandFlags: 'lvkKVe',
  },
  doas: { shortWithArg: 'uC', privileged: true },
  xargs: {
    shortWithArg: 'adEILnPs',
    longWithArg: [
      'arg-file',
      'delimiter',
      'eof',
      'replace',
      'max-lines',
      'max-args',
      'max-procs',
      'max-chars',
      'process-slot-var',
    ],
    attachedOnly: 'iel',
    openArgs: true,
  },
};

export function isWrapper(name: string): boolean {
  return Object.hasOwn(WRAPPERS, name);
}

export function isPrivilegedWrapper(name: string): boolean {
  return WRAPPERS[name]?.privileged === true;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Strips the wrapper `name` (words[0]) and its options. Returns undefined when nothing is left to
 * run (`env`, `sudo -l`): then the wrapper itself is the command.
 */
export function unwrapOnce(name: string, words: readonly ShellWord[]): Unwrapped | undefined {
  const spec = WRAPPERS[name];
  if (!spec) return undefined;
  const assigns: string[] = [];
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    const value = word.value;
    if (word.dynamic) break;
    if (value === '--') {
      i++;
      break;
    }
    if (value.startsWith('--') && value.length > 2) {
      const [long, attached] = splitLong(value.slice(2));
      if (attached === undefined && spec.longWithArg?.includes(long)) i++;
      continue;
    }
    if (value.startsWith('-') && value.length > 1) {
      if (spec.numericFlags && /^-\d+$/.test(value)) continue;
      const flags = value.slice(1);
      if (spec.noCommandFlags && [...flags].some((f) => spec.noCommandFlags!.includes(f))) return undefined;
      for (let k = 0; k < flags.length; k++) {
        const flag = flags[k]!;
        if (spec.attachedOnly?.includes(flag)) break;
        if (spec.shortWithArg?.includes(flag)) {
          if (k === flags.length - 1) i++;
          break;
        }
      }
      continue;
    }
    if (spec.assignments && ASSIGNMENT.test(value)) {
      assigns.push(value.slice(0, value.indexOf('=')));
      continue;
    }
    break;
  }
  i += spec.positionals ?? 0;
  const inner = words.slice(i);
  if (inner.length === 0) return undefined;
  return { inner, assigns, openArgs: spec.openArgs };
}

/**
 * True if `env` splits a string into a command (`-S`, `--split-string`, also inside a cluster such
 * as `-iS` or attached, `-S'cmd'`), among its options before the command.
 */
export function envSplitsString(words: readonly ShellWord[]): boolean {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word.dynamic) return false;
    const value = word.value;
    if (value === '--' || !value.startsWith('-') || value === '-') return false;
    if (value.startsWith('--')) {
      const [long, attached] = splitLong(value.slice(2));
      if (long.length > 0 && 'split-string'.startsWith(long)) return true;
      if (attached === undefined && (long === 'unset' || long === 'chdir')) i++;
      continue;
    }
    for (let k = 1; k < value.length; k++) {
      const flag = value[k]!;
      if (flag === 'S') return true;
      if (flag === 'u' || flag === 'C') {
        if (k === value.length - 1) i++;
        break;
      }
    }
  }
  return false;
}

function splitLong(text: string): [string, string | undefined] {
  const eq = text.indexOf('=');
  return eq < 0 ? [text, undefined] : [text.slice(0, eq), text.slice(eq + 1)];
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'su']);

export function isShell(name: string): boolean {
  return SHELLS.has(name);
}

export type ShellInvocation =
  { kind: 'script'; script: ShellWord; foreignSyntax: boolean } | { kind: 'stdin' } | { kind: 'file' };

/** How `sh`/`bash`/... (or `su`) is invoked: with a `-c` script, reading stdin, or running a file. */
export function shellInvocation(name: string, words: readonly ShellWord[]): ShellInvocation {
  let sawC = false;
  let sawStdin = false;
  for (let i = 1; i < words.length; i++) {
    const value = words[i]!.value;
    if (words[i]!.dynamic) return sawC ? { kind: 'script', script: words[i]!, foreignSyntax: false } : { kind: 'file' };
    if (value === '--' || value === '-') {
      if (sawC && words[i + 1]) return { kind: 'script', script: words[i + 1]!, foreignSyntax: name === 'fish' };
      return value === '-' ? { kind: 'stdin' } : words[i + 1] ? { kind: 'file' } : { kind: 'stdin' };
    }
    if (
      value === '--command' ||
      value === '--login' ||
      value === '--norc' ||
      value === '--noprofile' ||
      value === '--posix'
    ) {
      if (value === '--command') sawC = true;
      continue;
    }
    if (value === '--rcfile' || value === '--init-file' || value === '--shell' || (value === '-s' && name === 'su')) {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(value)) {
      const flags = value.slice(1);
      if (flags.includes('c')) sawC = true;
      if (flags.includes('s') && name !== 'su') sawStdin = true;
      if (/[oO]$/.test(flags)) i++;
      continue;
    }
    if (name === 'su' && !sawC) continue; // `su user -c cmd`: the user name
    if (sawC) return { kind: 'script', script: words[i]!, foreignSyntax: name === 'fish' };
    return sawStdin ? { kind: 'stdin' } : { kind: 'file' };
  }
  if (name === 'su') return { kind: 'file' };
  return { kind: 'stdin' };
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** The commands `find` runs through -exec, -execdir, -ok and -okdir (`inFoundDir`: the last two). */
export function findExecCommands(words: readonly ShellWord[]): { command: ShellWord[]; inFoundDir: boolean }[] {
  const commands: { command: ShellWord[]; inFoundDir: boolean }[] = [];
  for (let i = 1; i < words.length; i++) {
    if (words[i]!.dynamic || !FIND_EXEC.has(words[i]!.value)) continue;
    const command: ShellWord[] = [];
    let j = i + 1;
    for (; j < words.length; j++) {
      const value = words[j]!.value;
      if (!words[j]!.dynamic && (value === ';' || value === '+')) break;
      command.push(words[j]!);
    }
    if (command.length > 0) commands.push({ command, inFoundDir: words[i]!.value.endsWith('dir') });
    i = j;
  }
  return commands;
}
