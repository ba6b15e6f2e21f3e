// The per-program danger specs: which options, subcommands and scripts of each program are dangerous.
import type { ShellWord } from '../shell/types';
import type { ParsedArgs } from './args';
import { awkProgramDanger, sedScriptDanger } from './scripts';

export interface Danger {
  /** The word that carries it, as the command has it; undefined when no pattern can spell it out. */
  word?: ShellWord;
  /** How explanations name it: `sed -i`, `git -c`, `find -delete`. */
  label: string;
  /** What it does. */
  why: string;
}

interface DangerSpec {
  /** Options (canonical names) before the subcommand, or anywhere for programs without subcommands. */
  options?: Readonly<Record<string, string>>;
  /** Subcommands that run hooks or other programs. */
  subcommands?: Readonly<Record<string, string>>;
  /** Options after the subcommand, whatever it is. */
  subOptions?: Readonly<Record<string, string>>;
  /** Option words by their text (`-TT`, `+cmd`). */
  word?: (text: string) => string | undefined;
  /** The rest: scripts, assignments, read-only forms. */
  check?: (args: ParsedArgs, words: readonly ShellWord[], found: Danger[]) => void;
}

const HOOKS = 'runs git hooks';
const RUNS = 'runs another program';
const WRITES = 'writes a file';
const INLINE = 'runs code given on the command line';
const CONFIG = 'changes or replaces configuration, which can run programs';

const GIT: DangerSpec = {
  options: {
    c: 'sets configuration for the command (core.sshCommand, core.pager, alias.* run programs)',
    'config-env': 'sets configuration for the command from the environment',
    'exec-path': 'runs git programs from another directory',
    C: 'runs in another repository, with its configuration and hooks',
    'git-dir': 'uses another repository, with its configuration and hooks',
    'work-tree': 'uses another work tree',
    paginate: 'runs a pager',
    p: 'runs a pager',
  },
  subcommands: {
    commit: HOOKS,
    merge: HOOKS,
    rebase: HOOKS,
    am: HOOKS,
    push: HOOKS,
    pull: HOOKS,
    checkout: HOOKS,
    switch: HOOKS,
    clone: HOOKS,
    worktree: HOOKS,
    'cherry-pick': HOOKS,
    revert: HOOKS,
    gc: HOOKS,
    hook: HOOKS,
    'send-email': 'sends mail (and runs hooks)',
    bisect: 'runs commands (`bisect run`)',
    submodule: 'runs commands (`submodule foreach`) and clones repositories',
    'filter-branch': 'runs shell code given as filters',
    difftool: 'runs a diff program',
    mergetool: 'runs a merge program',
    help: 'runs a pager or a web browser',
    instaweb: 'starts a web server',
    'web--browse': 'runs a web browser',
    daemon: 'starts a server',
  },
  subOptions: {
    'upload-pack': 'runs a program on the remote side',
    'receive-pack': 'runs a program on the remote side',
    exec: RUNS,
    output: WRITES,
    template: 'installs hooks from a template directory',
    config: 'sets configuration of the new repository (core.fsmonitor runs programs)',
    extcmd: RUNS,
  },
  check(args, words, found) {
    if (args.sub !== 'config') return;
    const writes = ['add', 'replace-all', 'unset', 'unset-all', 'rename-section', 'remove-section', 'edit', 'e'];
    const option = args.options.find((o) => o.index > args.subIndex! && writes.includes(o.name));
    const first = args.operands[0]?.word.value;
    const reads = first === 'get' || first === 'list';
    if (option || (!reads && args.operands.length >= 2))
      found.push({
        word: words[args.subIndex!],
        label: 'git config',
        why: 'changes git configuration (core.pager, core.sshCommand, alias.* run programs)',
      });
  },
};

const SED: DangerSpec = {
  options: { 'in-place': 'edits files in place', file: 'runs a sed script from a file' },
  check(args, words, found) {
    if (args.options.some((o) => o.name === 'sandbox')) return;
    const scripts = args.options.filter((o) => o.name === 'expression').map((o) => o.value);
    if (scripts.length === 0 && !args.options.some((o) => o.name === 'file')) scripts.push(args.operands[0]?.word);
    for (const script of scripts) scriptDanger('sed', script, sedScriptDanger, found);
  },
};

const AWK: DangerSpec = {
  options: {
    file: 'runs an awk program from a file',
    include: 'loads awk code from a file',
    load: 'loads an extension',
    exec: 'runs an awk program from a file',
  },
  check(args, words, found) {
    const sources = args.options.filter((o) => o.name === 'source').map((o) => o.value);
    if (sources.length === 0 && !args.options.some((o) => o.name === 'file' || o.name === 'exec'))
      sources.push(args.operands[0]?.word);
    for (const source of sources) scriptDanger('awk', source, awkProgramDanger, found);
  },
};

const TAR: DangerSpec = {
  options: {
    'to-command': RUNS,
    'checkpoint-action': 'runs an action (exec=...) at checkpoints',
    'use-compress-program': RUNS,
    'rsh-command': RUNS,
    'rmt-command': RUNS,
    'info-script': RUNS,
    'new-volume-script': RUNS,
    'absolute-names': 'writes outside the current directory',
  },
};

const RSYNC: DangerSpec = {
  word: (text) => (text.startsWith('--del') ? 'deletes files at the destination' : undefined),
  options: {
    rsh: 'runs a program as the remote shell',
    'rsync-path': 'runs a program on the remote side',
    'log-file': WRITES,
    'write-batch': WRITES,
    'only-write-batch': WRITES,
    'remove-source-files': 'deletes the source files',
    daemon: 'starts a server',
    delete: 'deletes files at the destination',
    'delete-before': 'deletes files at the destination',
    'delete-during': 'deletes files at the destination',
    'delete-delay': 'deletes files at the destination',
    'delete-after': 'deletes files at the destination',
    'delete-excluded': 'deletes files at the destination',
    del: 'deletes files at the destination',
  },
};

const SSH_OPTIONS = {
  o: 'sets an ssh option (ProxyCommand, LocalCommand run programs)',
  F: 'reads another ssh configuration',
};
const NPM_RUNNERS = 'runs package scripts or package code';
const NPM: DangerSpec = {
  options: {
    'script-shell': 'runs scripts with another shell',
    userconfig: CONFIG,
    globalconfig: CONFIG,
    'node-options': 'sets Node.js options',
  },
  subOptions: {
    'script-shell': 'runs scripts with another shell',
    userconfig: CONFIG,
    globalconfig: CONFIG,
    'node-options': 'sets Node.js options',
    call: 'runs a shell command',
  },
  subcommands: {
    run: NPM_RUNNERS,
    exec: NPM_RUNNERS,
    test: NPM_RUNNERS,
    start: NPM_RUNNERS,
    stop: NPM_RUNNERS,
    restart: NPM_RUNNERS,
    install: NPM_RUNNERS,
    ci: NPM_RUNNERS,
    'install-test': NPM_RUNNERS,
    'install-ci-test': NPM_RUNNERS,
    rebuild: NPM_RUNNERS,
    publish: NPM_RUNNERS,
    pack: NPM_RUNNERS,
    explore: NPM_RUNNERS,
    init: NPM_RUNNERS,
    create: NPM_RUNNERS,
    dlx: NPM_RUNNERS,
    update: NPM_RUNNERS,
    config: CONFIG,
    set: CONFIG,
  },
};

/** `+N`, `+/pattern` and a few display commands are harmless at start; any other `+` word is a command. */
const plusCommand = (text: string) =>
  text.startsWith('+') && !/^\+(\d+[%]?|[GgFf]|\/[^!|]*)$/.test(text) ? 'runs a command at start' : undefined;

export const DANGER_TABLE: Record<string, DangerSpec> = {
  find: { options: { delete: 'deletes files', fprint: WRITES, fprint0: WRITES, fprintf: WRITES, fls: WRITES } },
  git: GIT,
  sed: SED,
  awk: AWK,
  tar: TAR,
  rsync: RSYNC,
  ssh: { options: SSH_OPTIONS },
  scp: { options: { ...SSH_OPTIONS, S: RUNS } },
  sftp: { options: { ...SSH_OPTIONS, S: RUNS, D: RUNS } },
  less: {
    options: {
      'log-file': WRITES,
      'LOG-FILE': WRITES,
      'lesskey-file': 'binds keys to commands',
      'lesskey-src': 'binds keys to commands',
      'lesskey-content': 'binds keys to commands',
    },
    word: plusCommand,
  },
  more: { word: plusCommand },
  perl: {
    options: {
      e: INLINE,
      E: INLINE,
      i: 'edits files in place',
      M: 'loads a module with arguments (runs code)',
      m: 'loads a module with arguments (runs code)',
      d: 'runs a debugger module',
    },
  },
  python: { options: { c: INLINE } },
  node: {
    options: {
      eval: INLINE,
      print: INLINE,
      require: 'loads code before the script',
      import: 'loads code before the script',
      loader: 'loads code before the script',
      'experimental-loader': 'loads code before the script',
    },
  },
  ruby: { options: { e: INLINE, r: 'loads a library before the script', i: 'edits files in place' } },
  php: {
    options: {
      r: INLINE,
      B: INLINE,
      R: INLINE,
      E: INLINE,
      F: 'runs code from a file for every line',
      d: 'sets an ini directive (auto_prepend_file runs code)',
    },
  },
  deno: { subcommands: { eval: INLINE } },
  make: {
    options: {
      file: 'reads another makefile',
      eval: 'evaluates make code',
      directory: 'runs the makefile of another directory',
      'include-dir': 'reads makefiles from another directory',
    },
    check(args, words, found) {
      for (const { word } of args.operands)
        if (!word.dynamic && /^[\w.-]+[:+?!]?=/.test(word.value))
          found.push({
            word,
            label: `make ${word.value.slice(0, word.value.indexOf('='))}=`,
            why: 'overrides a make variable (SHELL, CC, MAKE and the like run programs)',
          });
    },
  },
  npm: NPM,
  pnpm: NPM,
  yarn: NPM,
  npx: {
    options: {
      call: 'runs a shell command',
      c: 'runs a shell command',
      shell: 'runs another shell',
      'script-shell': 'runs another shell',
    },
  },
  curl: {
    options: {
      output: WRITES,
      'remote-name': WRITES,
      'remote-name-all': WRITES,
      'output-dir': WRITES,
      'dump-header': WRITES,
      'cookie-jar': WRITES,
      trace: WRITES,
      'trace-ascii': WRITES,
      libcurl: WRITES,
      'etag-save': WRITES,
      stderr: WRITES,
      config: 'reads options from a file',
      'create-dirs': 'creates directories',
    },
  },
  wget: {
    options: {
      'output-document': WRITES,
      'output-file': WRITES,
      'append-output': WRITES,
      execute: 'runs a wgetrc command',
      config: 'reads options from a file',
      'directory-prefix': 'writes files into another directory',
    },
  },
  sort: { options: { output: WRITES, 'compress-program': RUNS } },
  // `uniq INPUT OUTPUT`, `xxd INFILE OUTFILE`: a second operand is a file written.
  uniq: { check: secondOperandWrites },
  xxd: { check: secondOperandWrites },
  man: { options: { pager: RUNS, html: 'runs a web browser', P: RUNS, H: 'runs a web browser' } },
  vim: {
    options: { c: 'runs editor commands', cmd: 'runs editor commands', S: 'runs editor commands from a file' },
    word: plusCommand,
  },
  zip: { options: { 'unzip-command': RUNS }, word: (text) => (text.startsWith('-TT') ? RUNS : undefined) },
};
function secondOperandWrites(args: ParsedArgs, _words: readonly ShellWord[], found: Danger[]): void {
  const output = args.operands[1];
  if (output) found.push({ word: output.word, label: `${args.program} ${output.word.value}`, why: WRITES });
}

DANGER_TABLE.gawk = DANGER_TABLE.mawk = DANGER_TABLE.nawk = DANGER_TABLE.awk!;
DANGER_TABLE.python3 = DANGER_TABLE.python2 = DANGER_TABLE.python!;
DANGER_TABLE.nodejs = DANGER_TABLE.bun = DANGER_TABLE.node!;
DANGER_TABLE.vi = DANGER_TABLE.nvim = DANGER_TABLE.view = DANGER_TABLE.vim!;
DANGER_TABLE.gmake = DANGER_TABLE.make!;

function scriptDanger(
  program: string,
  script: ShellWord | undefined,
  read: (text: string) => string | undefined,
  found: Danger[],
): void {
  if (!script) return;
  if (script.dynamic) {
    found.push({ label: `${program} ${script.value}`, why: 'has a script only known at run time' });
    return;
  }
  const why = read(script.value);
  if (why) found.push({ word: script, label: `${program} '${clip(script.value)}'`, why });
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
