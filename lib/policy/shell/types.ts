// What the shell analysis hands to the policy engine: every simple command of a script as a
// part, with the words rules are matched against and what could not be seen statically.

/** A directory a part may run in: '' the start directory, `a/b` below it, `/abs`, `~/x`, or dirs.ts's UNKNOWN_DIR. */
export type Dir = string;
/** The directories a part may run in. */
export type Dirs = readonly Dir[];

export interface ShellWord {
  /** The word with quotes and escapes resolved; for a dynamic word, its source text. */
  value: string;
  /** Its value is only known at run time (parameter, command or brace expansion). */
  dynamic: boolean;
  /** A dynamic word outside quotes: may become several words, or none. */
  splittable: boolean;
  /** An unquoted glob (`*.ts`): the file system picks the names it becomes. */
  glob?: boolean;
  /** A process substitution `<(...)` alone: a pipe, not a file. */
  procsub?: boolean;
}

/** A file a part reads or writes: a redirection, or an operand of a known reader or writer. */
export interface FileAccess {
  mode: 'read' | 'write';
  word: ShellWord;
  /** A directory read or written with everything below it (`grep -r x dir`, `cp -r dir b`). */
  recursive?: boolean;
}

export interface ShellPart {
  /** The form allow rules see: the inner command, or the outermost sudo/doas/su invocation. */
  words: ShellWord[];
  /** Every form deny and ask rules see: each wrapper invocation and the inner command. */
  views: ShellWord[][];
  /** Display text of `words`. */
  text: string;
  /** `words[0]`, as written (may be a path). */
  program: string;
  /** Why the engine cannot see this part statically; such a part is never allowed. */
  opaque?: string;
  /** An output redirection to a file (not /dev/null, not an fd duplication). */
  writesFile: boolean;
  /** More arguments arrive at run time (xargs). */
  openArgs: boolean;
  /** An environment assignment that changes what runs (LD_PRELOAD, PATH, ...). */
  riskyEnv?: string;
  /** A shell reading its script from a pipe or stdin (`curl ... | sh`). */
  shellFromStdin: boolean;
  /** Files its redirections (and those of the compound commands around it) read or write. */
  redirects?: readonly FileAccess[];
  /** The directories it may run in, relative to where the command starts (dirs.ts); undefined: the start. */
  dirs?: Dirs;
  /** Globs may match names that start with a dot (the command sets dotglob or GLOBIGNORE). */
  dotglob?: boolean;
}

export interface ParsedCommand {
  parts: ShellPart[];
  /** `$()`, backticks, `<()` or `>()` appear anywhere. */
  hasSubstitution: boolean;
}
