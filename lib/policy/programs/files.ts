// The readers and writers table: which operands and option values of known programs are files
// they read or write, so file rules (read_file, write_file, edit_file) apply to shell parts
// too. Read with the shared parser (args.ts). A word only known at run time, and arguments
// xargs adds, are files the engine cannot name: file rules apply to them in may mode.
import type { FileAccess, ShellWord } from '../shell/types';
import { basename } from '../shell/words';
import { oldStyleTar, parsedArgs, type ParsedArgs } from './args';

type Mode = FileAccess['mode'];

interface FileSpec {
  /** What the operands are (after those `skip` leaves out). */
  operands?: Mode | 'both';
  /** Leading operands that are not files (a pattern, a script, a mode), unless one of `unless` gives it. */
  skip?: { count: number; unless?: readonly string[] };
  /** Options (canonical names) whose value is a file. */
  values?: Readonly<Record<string, Mode>>;
  /** Options that make a directory operand stand for everything below it. */
  recursive?: readonly string[];
  /** Directory operands always stand for everything below them (rg), and none means `.`. */
  alwaysRecursive?: boolean;
  /** Operands of the form `name=value` are assignments, not files (awk). */
  assignments?: boolean;
  /** The subcommands the spec is about; the program's others read or write no file it names. */
  subcommands?: readonly string[];
  /** Everything else: cp's target, dd's `of=`. */
  custom?: (args: ParsedArgs, push: (mode: Mode, word: ShellWord, recursive?: boolean) => void) => void;
}

const READ: FileSpec = { operands: 'read' };
const WRITE: FileSpec = { operands: 'write' };

/** The last operand is written (the target), the others read; `-t dir` names the target instead. */
function copyLike(sourceMode: Mode | 'both', recursiveOptions: readonly string[]): FileSpec['custom'] {
  return (args, push) => {
    const recursive = args.options.some((o) => recursiveOptions.includes(o.name));
    const target = args.options.find((o) => o.name === 'target-directory')?.value;
    const operands = args.operands.map((o) => o.word);
    const sources = target ? operands : operands.slice(0, -1);
    const into = target ?? operands[operands.length - 1];
    for (const source of sources) {
      if (sourceMode !== 'write') push('read', source, recursive);
      if (sourceMode !== 'read') push('write', source, recursive);
      // The target may be a directory: then the copy is the source's name inside it.
      if (into) push('write', inside(into, source), recursive);
    }
    if (into && !target && operands.length > 1) push('write', into, recursive);
  };
}

/** `dir/name`: where `source` lands when copied into the directory `dir` (`whole`: the path itself below `dir`). */
function inside(dir: ShellWord, source: ShellWord, whole = false): ShellWord {
  const name = source.dynamic || whole ? source.value : basename(source.value.replace(/\/+$/, ''));
  return {
    value: `${dir.value.replace(/\/+$/, '')}/${name}`,
    dynamic: dir.dynamic || source.dynamic,
    splittable: false,
  };
}

/** scp and rsync: `host:path` is remote, not a file here. */
function remoteCopy(args: ParsedArgs, push: (mode: Mode, word: ShellWord, recursive?: boolean) => void): void {
  const local = (w: ShellWord) => w.dynamic || !/^[^/]*:/.test(w.value);
  const operands = args.operands.map((o) => o.word);
  const recursive = args.options.some((o) => o.name === 'recursive' || o.name === 'r' || o.name === 'archive');
  operands.forEach((word, i) => {
    if (!local(word)) return;
    push(i === operands.length - 1 && operands.length > 1 ? 'write' : 'read', word, recursive);
  });
}

const PATTERN_FIRST: FileSpec = {
  operands: 'read',
  skip: { count: 1, unless: ['regexp', 'file', 'e', 'f'] },
  values: { file: 'read', f: 'read' },
  recursive: ['recursive', 'dereference-recursive', 'r', 'R'],
};

const TABLE: Record<string, FileSpec> = {
  cat: READ,
  tac: READ,
  nl: READ,
  head: READ,
  tail: READ,
  less: READ,
  more: READ,
  most: READ,
  cut: READ,
  wc: { operands: 'read', values: { 'files0-from': 'read' } },
  base64: READ,
  base32: READ,
  od: READ,
  hexdump: READ,
  strings: READ,
  file: READ,
  md5sum: READ,
  sha1sum: READ,
  sha256sum: READ,
  sha512sum: READ,
  cksum: READ,
  b2sum: READ,
  diff: {
    operands: 'read',
    recursive: ['recursive', 'r'],
    values: { 'to-file': 'read', 'from-file': 'read', 'exclude-from': 'read' },
  },
  // `date -f FILE` prints each line it cannot read as a date; `--files0-from` names print likewise.
  date: { values: { file: 'read' } },
  du: { values: { 'files0-from': 'read', 'exclude-from': 'read' } },
  // Outside the repository (or with --no-index) `git diff a b` shows two files; revisions named
  // as operands are read as files too, which only deny and ask rules see.
  git: { subcommands: ['diff'], operands: 'read' },
  cmp: READ,
  comm: READ,
  paste: READ,
  join: READ,
  fold: READ,
  fmt: READ,
  pr: READ,
  expand: READ,
  unexpand: READ,
  rev: READ,
  column: READ,
  iconv: READ,
  bat: READ,
  zcat: READ,
  gzcat: READ,
  bzcat: READ,
  xzcat: READ,
  zless: READ,
  zmore: READ,
  split: { operands: 'read' },
  csplit: { operands: 'read' },
  view: READ,
  source: { custom: (args, push) => args.operands[0] && push('read', args.operands[0].word) },
  sort: { operands: 'read', values: { output: 'write', 'files0-from': 'read' } },
  uniq: { custom: (args, push) => args.operands.forEach((o, i) => i < 2 && push(i === 0 ? 'read' : 'write', o.word)) },
  xxd: { custom: (args, push) => args.operands.forEach((o, i) => i < 2 && push(i === 0 ? 'read' : 'write', o.word)) },
  grep: PATTERN_FIRST,
  rg: { ...PATTERN_FIRST, alwaysRecursive: true },
  ag: { operands: 'read', skip: { count: 1 }, alwaysRecursive: true },
  sed: {
    operands: 'read',
    skip: { count: 1, unless: ['expression', 'file'] },
    values: { file: 'read' },
    custom: (args, push) => {
      if (!args.options.some((o) => o.name === 'in-place')) return;
      const skip = args.options.some((o) => o.name === 'expression' || o.name === 'file') ? 0 : 1;
      for (const operand of args.operands.slice(skip)) push('write', operand.word);
    },
  },
  awk: {
    operands: 'read',
    skip: { count: 1, unless: ['file', 'source', 'exec'] },
    values: { file: 'read', exec: 'read', include: 'read' },
    assignments: true,
  },
  jq: { custom: jqFiles },
  tee: WRITE,
  touch: { operands: 'write', values: { reference: 'read' } },
  truncate: { operands: 'write', values: { reference: 'read' } },
  mkdir: WRITE,
  rmdir: WRITE,
  unlink: WRITE,
  shred: WRITE,
  rm: { operands: 'write', recursive: ['recursive'] },
  chmod: {
    operands: 'write',
    skip: { count: 1, unless: ['reference'] },
    values: { reference: 'read' },
    recursive: ['recursive'],
  },
  chown: {
    operands: 'write',
    skip: { count: 1, unless: ['reference'] },
    values: { reference: 'read' },
    recursive: ['recursive'],
  },
  cp: { custom: copyLike('read', ['recursive', 'archive']) },
  install: { custom: copyLike('read', []) },
  mv: { custom: copyLike('both', []) },
  ln: {
    custom: (args, push) => {
      const target = args.options.find((o) => o.name === 'target-directory')?.value;
      const operands = args.operands.map((o) => o.word);
      const into = target ?? (operands.length > 1 ? operands[operands.length - 1] : undefined);
      if (into) push('write', into);
    },
  },
  dd: {
    custom: (args, push) => {
      for (const { word } of args.operands) {
        if (word.dynamic) push('read', word);
        else if (word.value.startsWith('if=')) push('read', { ...word, value: word.value.slice(3) });
        else if (word.value.startsWith('of=')) push('write', { ...word, value: word.value.slice(3) });
      }
    },
  },
  tar: {
    custom: (args, push) => {
      const has = (name: string) => args.options.some((o) => o.name === name);
      const archive = args.options.find((o) => o.name === 'file')?.value;
      const creates = has('create') || has('append') || has('update');
      if (archive && archive.value !== '-') push(creates ? 'write' : 'read', archive);
      // `-C dir`: the operands are read from there.
      const dir = args.options.find((o) => o.name === 'directory')?.value;
      const from = (word: ShellWord) =>
        dir && (word.dynamic || !word.value.startsWith('/')) ? inside(dir, word, true) : word;
      if (creates) for (const { word } of args.operands) push('read', from(word), true);
      for (const o of args.options)
        if ((o.name === 'files-from' || o.name === 'exclude-from') && o.value) push('read', o.value);
    },
  },
  zip: {
    custom: (args, push) => {
      const recursive = args.options.some((o) => o.name === 'r' || o.name === 'recurse-paths');
      args.operands.forEach((o, i) => push(i === 0 ? 'write' : 'read', o.word, i > 0 && recursive));
    },
  },
  unzip: { custom: (args, push) => args.operands[0] && push('read', args.operands[0].word) },
  gzip: { operands: 'both' },
  gunzip: { operands: 'both' },
  bzip2: { operands: 'both' },
  bunzip2: { operands: 'both' },
  xz: { operands: 'both' },
  unxz: { operands: 'both' },
  scp: { custom: remoteCopy },
  rsync: {
    custom: remoteCopy,
    values: {
      'files-from': 'read',
      'exclude-from': 'read',
      'include-from': 'read',
      'password-file': 'read',
      'log-file': 'write',
      'write-batch': 'write',
      'only-write-batch': 'write',
      'read-batch': 'read',
    },
  },
  curl: {
    values: {
      output: 'write',
      'upload-file': 'read',
      config: 'read',
      'dump-header': 'write',
      'cookie-jar': 'write',
      trace: 'write',
      'trace-ascii': 'write',
      stderr: 'write',
      libcurl: 'write',
      'etag-save': 'write',
      cert: 'read',
      key: 'read',
      'netrc-file': 'read',
    },
    custom: (args, push) => {
      // `curl file:///etc/passwd` reads a local file.
      for (const { word } of args.operands)
        if (!word.dynamic && /^file:\/\//i.test(word.value))
          push('read', { ...word, value: decodeFileUrl(word.value) });
      for (const o of args.options) {
        const value = o.value;
        if (!value) continue;
        if (value.dynamic) {
          if (o.name.startsWith('data') || o.name === 'form' || o.name === 'json') push('read', value);
          continue;
        }
        // `-d @file`, `--data-binary @file`, `-F name=@file`, `-F name=<file`: the request carries the file.
        const at = /^(?:[^=]*=)?[@<](.+)$/.exec(value.value);
        if (at && (o.name.startsWith('data') || o.name === 'form' || o.name === 'json') && at[1] !== '-')
          push('read', { ...value, value: at[1]!.split(';')[0]! });
      }
    },
  },
  wget: {
    values: {
      'output-document': 'write',
      'output-file': 'write',
      'append-output': 'write',
      'input-file': 'read',
      'post-file': 'read',
      'body-file': 'read',
      config: 'read',
      'load-cookies': 'read',
      'save-cookies': 'write',
    },
  },
};
TABLE.egrep = TABLE.fgrep = TABLE.grep!;
TABLE.gawk = TABLE.mawk = TABLE.nawk = TABLE.awk!;
TABLE.chgrp = TABLE.chown!;
TABLE['.'] = TABLE.source!;
for (const shell of ['sh', 'bash', 'zsh', 'dash', 'ksh'])
  TABLE[shell] = {
    custom: (args, push) =>
      args.operands[0] && !args.options.some((o) => o.letter === 'c') && push('read', args.operands[0].word),
  };

/**
 * jq: the filter, then files; `--rawfile NAME FILE` and `--slurpfile NAME FILE` take two words,
 * the second a file read (the shared parser reads only NAME as the value).
 */
function jqFiles(args: ParsedArgs, push: (mode: Mode, word: ShellWord) => void): void {
  const taken = new Set<number>();
  for (const o of args.options) {
    if (o.name === 'from-file' || o.name === 'f') {
      if (o.value) push('read', o.value);
    } else if ((o.name === 'rawfile' || o.name === 'slurpfile') && o.value) {
      const file = args.operands.find((operand) => operand.index > o.index && operand.word !== o.value);
      if (file) {
        push('read', file.word);
        taken.add(file.index);
      }
    }
  }
  const fromFile = args.options.some((o) => o.name === 'from-file' || o.name === 'f');
  const operands = args.operands.filter((o) => !taken.has(o.index));
  for (const { word } of operands.slice(fromFile ? 0 : 1)) push('read', word);
}

/** The path of a `file://` URL (its host, if any, ignored). */
function decodeFileUrl(url: string): string {
  const path = url.replace(/^file:\/\/[^/]*/i, '');
  try {
    return decodeURIComponent(path) || '/';
  } catch {
    return path || '/';
  }
}

/** A file xargs adds at run time. */
const FROM_XARGS: ShellWord = { value: '(arguments from xargs)', dynamic: true, splittable: true };
const NONE: readonly FileAccess[] = [];
const cache = new WeakMap<readonly ShellWord[], readonly FileAccess[]>();

/** The files one command (its innermost form) reads or writes through its operands and options. */
export function fileAccessesOf(words: readonly ShellWord[], openArgs: boolean): readonly FileAccess[] {
  let accesses = cache.get(words);
  if (accesses === undefined) {
    accesses = scan(words, openArgs);
    cache.set(words, accesses);
  }
  return accesses;
}

function scan(words: readonly ShellWord[], openArgs: boolean): readonly FileAccess[] {
  const program = words[0];
  if (!program || program.dynamic) return NONE;
  const spec = Object.hasOwn(TABLE, basename(program.value)) ? TABLE[basename(program.value)]! : undefined;
  if (!spec) return NONE;
  const args = parsedArgs(oldStyleTar(words));
  if (spec.subcommands && !(args.sub !== undefined && spec.subcommands.includes(args.sub))) return NONE;
  const found: FileAccess[] = [];
  const push = (mode: Mode, word: ShellWord, recursive = false) => {
    if (word.procsub || (!word.dynamic && (word.value === '-' || word.value === ''))) return;
    found.push(recursive ? { mode, word, recursive } : { mode, word });
  };
  for (const option of args.options) {
    const mode =
      spec.values && option.value && Object.hasOwn(spec.values, option.name) ? spec.values[option.name] : undefined;
    if (mode) push(mode, option.value!);
  }
  if (spec.operands) {
    const recursive =
      spec.alwaysRecursive === true ||
      (spec.recursive?.length ? args.options.some((o) => spec.recursive!.includes(o.name)) : false);
    const skipped = spec.skip && !args.options.some((o) => spec.skip!.unless?.includes(o.name)) ? spec.skip.count : 0;
    const operands = args.operands
      .slice(skipped)
      .filter(({ word }) => !(spec.assignments && !word.dynamic && /^[A-Za-z_]\w*=/.test(word.value)));
    for (const { word } of operands) {
      if (spec.operands !== 'write') push('read', word, recursive);
      if (spec.operands !== 'read') push('write', word, recursive);
    }
    // `rg pattern` and `grep -r pattern` read the current directory.
    if (operands.length === 0 && recursive && !openArgs)
      push('read', { value: '.', dynamic: false, splittable: false }, true);
    if (openArgs) push(spec.operands === 'write' ? 'write' : 'read', FROM_XARGS, recursive);
  } else if (openArgs) {
    push('read', FROM_XARGS);
  }
  spec.custom?.(args, push);
  return found.length > 0 ? found : NONE;
}
