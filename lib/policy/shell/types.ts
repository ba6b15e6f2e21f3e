// What the shell analysis hands to the policy engine: every simple command of a script as a
// part, with the words rules are matched against and what could not be seen statically.

export interface ShellWord {
  /** The word with quotes and escapes resolved; for a dynamic word, its source text. */
  value: string;
  /** Its value is only known at run time (parameter, command or brace expansion). */
  dynamic: boolean;
  /** A dynamic word outside quotes: may become several words, or none. */
  splittable: boolean;
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
}

export interface ParsedCommand {
  parts: ShellPart[];
  /** `$()`, backticks, `<()` or `>()` appear anywhere. */
  hasSubstitution: boolean;
}
