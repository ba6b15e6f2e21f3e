// Where each part of a command runs, so file rules can resolve its relative paths: the start
// directory (the workspace, or an agent hook's cwd), changed by a literal `cd`/`pushd` earlier in
// the same command. A part may run in one of several directories (`cd a; cat x`: if `cd` fails,
// `cat` reads ./x); an unknown target (`cd "$D"`, `cd -`, `popd`, a `cd` in a loop or a
// function) makes the directory unknown. Bash follows CDPATH only when it is set: a command that
// sets it makes the directory unknown (the agent's environment is assumed not to).
import type { Dir, Dirs, ShellWord } from './types';

export type { Dir, Dirs };

export const UNKNOWN_DIR = '\u0000?';
export const START: Dirs = [''];
export const UNKNOWN: Dirs = [UNKNOWN_DIR];

const MAX_DIRS = 8;

/** A cheap look at the whole source: without these words no part can change directory. */
export function mayChangeDir(source: string): boolean {
  return /\b(cd|pushd|popd|CDPATH)\b/.test(source) || /(^|\s)(-C|--chdir|-D)\b/.test(source);
}

/** The target of `cd`/`pushd`/`popd` words, or undefined if they are not a directory change. */
export function cdTarget(words: readonly ShellWord[]): Dir | undefined {
  const name = words[0];
  if (!name || name.dynamic) return undefined;
  if (name.value === 'popd') return UNKNOWN_DIR;
  if (name.value !== 'cd' && name.value !== 'pushd') return undefined;
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (word.dynamic) return UNKNOWN_DIR;
    if (word.value === '--') {
      i++;
      break;
    }
    if (!/^-[LPe@]+$/.test(word.value)) break;
  }
  const target = words[i];
  if (!target) return name.value === 'cd' ? '~' : UNKNOWN_DIR;
  if (target.dynamic || target.glob || target.value === '-' || target.value === '' || /^[+-]\d+$/.test(target.value))
    return UNKNOWN_DIR;
  if (target.value.startsWith('~') && target.value !== '~' && !target.value.startsWith('~/')) return UNKNOWN_DIR;
  return target.value;
}

/** The directories after changing to `target` from each of `dirs`. */
export function join(dirs: Dirs, target: Dir): Dirs {
  if (target === UNKNOWN_DIR) return UNKNOWN;
  if (target.startsWith('/') || target === '~' || target.startsWith('~/')) return [target];
  return cap(dirs.map((dir) => (dir === UNKNOWN_DIR ? UNKNOWN_DIR : dir === '' ? target : `${dir}/${target}`)));
}

export function union(a: Dirs, b: Dirs): Dirs {
  if (a === b) return a;
  return cap([...a, ...b]);
}

function cap(dirs: Dir[]): Dirs {
  const unique = [...new Set(dirs)];
  if (unique.includes(UNKNOWN_DIR) || unique.length > MAX_DIRS) return UNKNOWN;
  return unique;
}

interface WrapperDirSpec {
  /** Short options that take a value. */
  values: string;
  /** The short option naming the directory. */
  dir: string;
  /** A short option that changes the root directory. */
  root?: string;
  longValues: readonly string[];
}

const WRAPPER_DIRS: Record<string, WrapperDirSpec> = {
  env: { values: 'uCS', dir: 'C', longValues: ['unset', 'chdir', 'split-string'] },
  sudo: {
    values: 'ugCDhprtTUcR',
    dir: 'D',
    root: 'R',
    longValues: [
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
  },
};

/** The directory a wrapper runs its command in (`env -C dir`, `sudo -D dir`), if it names one. */
export function wrapperDir(name: string, words: readonly ShellWord[]): Dir | undefined {
  const spec = Object.hasOwn(WRAPPER_DIRS, name) ? WRAPPER_DIRS[name]! : undefined;
  if (!spec) return undefined;
  const valueOf = (word: ShellWord | undefined) =>
    !word || word.dynamic || word.value === '' ? UNKNOWN_DIR : word.value;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    // A run-time word among the options may be `-C dir` itself.
    if (word.dynamic) return UNKNOWN_DIR;
    const value = word.value;
    if (value === '--' || !value.startsWith('-') || value === '-') {
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) continue;
      return undefined;
    }
    if (value.startsWith('--')) {
      const eq = value.indexOf('=');
      const long = value.slice(2, eq < 0 ? undefined : eq);
      if (long === 'chroot') return UNKNOWN_DIR;
      if (long === 'chdir')
        return eq < 0
          ? valueOf(words[i + 1])
          : valueOf({ value: value.slice(eq + 1), dynamic: false, splittable: false });
      if (eq < 0 && spec.longValues.includes(long)) i++;
      continue;
    }
    for (let k = 1; k < value.length; k++) {
      const letter = value[k]!;
      if (!spec.values.includes(letter)) continue;
      const attached = value.slice(k + 1);
      const option = attached === '' ? valueOf(words[i + 1]) : attached;
      if (letter === spec.root) return UNKNOWN_DIR;
      if (letter === spec.dir) return option;
      if (attached === '') i++;
      break;
    }
  }
  return undefined;
}
