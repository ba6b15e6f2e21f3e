// The shape of a program's argument spec: which options take values, aliases, subcommands.

export interface ProgramSpec {
  /** Short options that take a value (attached, `-n5`, or the next word). */
  shortValue?: string;
  /** Long options (canonical names) that take the next word as value when not written `--name=value`. */
  longValue?: readonly string[];
  /** Short letter -> canonical long name; several names separated by spaces (`git branch -D` is `--delete --force`). */
  aliases?: Readonly<Record<string, string>>;
  /** Long name as written -> canonical long name (`--quiet` is `--silent` for chmod). */
  longAliases?: Readonly<Record<string, string>>;
  /** `-name` is one option, never the letters n, a, m, e (find). */
  singleDash?: boolean;
  /** Options end at the first operand (`ssh host ls -la`: `-la` belongs to the remote command). */
  optionsFirst?: boolean;
  /** Short options whose value ends the options (`python -c code args`: args are the code's). */
  endsOptions?: string;
  /** `-5` is an operand (a number), not an option. */
  numbersAreOperands?: boolean;
  /** `+word` is an option (less +G). */
  plusOptions?: boolean;
  /** Subcommands with their own options; a spec with subcommands of its own is a group (`docker container`). */
  subcommands?: Readonly<Record<string, ProgramSpec>>;
  /** Subcommand path -> canonical subcommand (`npm i` -> `install`, `docker container rm` -> `rm`). */
  subAliases?: Readonly<Record<string, string>>;
  /** An operand starting with `+` also counts as this option (`git push origin +main` forces). */
  plusOperandOption?: string;
  /** The program's global options are also read after the subcommand (kubectl -n). */
  globalsAnywhere?: boolean;
}
