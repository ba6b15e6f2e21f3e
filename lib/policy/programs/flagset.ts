// Flags as sets, for deny and ask rules (may mode): a command pattern's option words match the
// same options however a command spells them: clustered or split short options in any order
// (`-rf` = `-fr` = `-r -f`, and `-rfv` contains them), long forms and their short aliases
// (specs.ts), unique abbreviations of long options (`--forc`), options before or after operands,
// options before a subcommand (`git -C x push -f`), `--`. The pattern's operands still match in
// order, with its wildcards. Allow rules never use this: they match word for word (must mode).
import {
  matchCommand,
  type CommandPattern,
  type FlagPattern,
  type PatternOption,
  type PatternWord,
} from '../shell/pattern';
import type { ShellWord } from '../shell/types';
import { basename } from '../shell/words';
import { mayBeOption, parseArgs, parsedArgs, type ParsedArgs } from './args';

// The shape lives beside CommandPattern (shell/pattern.ts), which caches it: neither module imports the other for types.
export type { FlagPattern };

// A pattern word the parser must not read as an option or a subcommand: a glob or wildcard.
const OPEN: ShellWord = { value: '*', dynamic: true, splittable: false };

/** The flag-set reading of a pattern; undefined when its program is not a literal word. */
export function compileFlagPattern(pattern: CommandPattern): FlagPattern | undefined {
  const first = pattern.words[0];
  if (!first || first.kind !== 'literal') return undefined;
  const words: ShellWord[] = pattern.words.map((w) =>
    w.kind === 'literal' ? { value: w.text, dynamic: false, splittable: false } : { ...OPEN },
  );
  const parsed = parseArgs(words);
  const wordOf = new Map<ShellWord, PatternWord>(words.map((w, i) => [w, pattern.words[i]!]));
  const options = parsed.options.map((o): PatternOption => {
    const option: PatternOption = { name: o.name, long: o.long };
    if (o.value) option.value = wordOf.get(o.value) ?? { kind: 'literal', text: o.value.value };
    return option;
  });
  // A subcommand group left open (`docker container *`): word for word only.
  if (parsed.subUnknown && parsed.subIndex !== undefined) return undefined;
  const sub = parsed.subUnknown ? undefined : parsed.sub;
  // The program is compared on its own (by name or basename): here it is one word, any word.
  const operandWords: PatternWord[] = [{ kind: 'any1' }];
  for (const operand of parsed.operands) operandWords.push(pattern.words[operand.index]!);
  // A trailing `*` keeps its "any rest" meaning even when options came after it.
  const last = pattern.words[pattern.words.length - 1]!;
  if (last.kind === 'anyN' && operandWords[operandWords.length - 1] !== last) operandWords.push(last);
  return {
    program: first.text,
    sub,
    options,
    operands: { source: pattern.source, words: operandWords, weight: pattern.weight },
  };
}

interface CommandReading {
  args: ParsedArgs;
  /** The program word, then the operands; run-time words may stand for any number of words. */
  operands: ShellWord[];
  /** The same without the subcommand (compared on its own when a pattern names one). */
  afterSub: ShellWord[];
  /** Run-time words before `--`: each may hold any options. */
  mayHoldOptions: boolean;
}

const readings = new WeakMap<readonly ShellWord[], CommandReading>();

function readingOf(view: readonly ShellWord[]): CommandReading {
  let reading = readings.get(view);
  if (!reading) {
    const args = parsedArgs(view);
    const operands: ShellWord[] = [view[0]!];
    if (args.sub !== undefined && args.subIndex !== undefined) operands.push(view[args.subIndex]!);
    for (const operand of args.operands)
      operands.push(operand.word.dynamic ? { ...operand.word, splittable: true } : operand.word);
    const end = args.endOfOptions ?? Infinity;
    const afterSub =
      args.sub !== undefined && args.subIndex !== undefined ? [operands[0]!, ...operands.slice(2)] : operands;
    reading = {
      args,
      operands,
      afterSub,
      mayHoldOptions: args.dynamic.some((d) => d.index < end && mayBeOption(d.word)),
    };
    readings.set(view, reading);
  }
  return reading;
}

/** Does the command `view` match the pattern with options read as sets? */
export function matchFlags(pattern: FlagPattern, view: readonly ShellWord[], openArgs: boolean): boolean {
  const program = view[0];
  if (!program || program.dynamic) return false;
  if (
    program.value !== pattern.program &&
    (!program.value.includes('/') || basename(program.value) !== pattern.program)
  )
    return false;
  const reading = readingOf(view);
  const { args } = reading;
  let operands = reading.operands;
  if (pattern.sub !== undefined) {
    if (!args.subUnknown && args.sub !== pattern.sub) return false;
    // The subcommand matched: compare what follows it.
    operands = reading.afterSub;
  }
  const anyOptions = reading.mayHoldOptions || openArgs;
  for (const wanted of pattern.options) {
    if (!anyOptions && !args.options.some((o) => sameOption(wanted, o.name, o.long) && valueMatches(wanted, o.value)))
      return false;
  }
  return matchCommand(pattern.operands, operands, 'may', openArgs);
}

function sameOption(wanted: PatternOption, name: string, long: boolean): boolean {
  if (name === wanted.name) return true;
  // getopt_long and git accept any unambiguous prefix of a long option: `--forc` is `--force`.
  return long && name.length > 0 && wanted.name.length > 1 && wanted.name.startsWith(name);
}

function valueMatches(wanted: PatternOption, value: ShellWord | undefined): boolean {
  if (!wanted.value) return true;
  if (!value) return false;
  if (value.dynamic) return true;
  const p = wanted.value;
  switch (p.kind) {
    case 'anyN':
    case 'any1':
      return true;
    case 'literal':
      return value.value === p.text;
    case 'glob':
      return p.glob.test(value.value);
  }
}
