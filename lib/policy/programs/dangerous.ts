// The dangerous options table: per program, the options and sub-forms that write files, run
// other programs or change configuration, which an allow rule with a wildcard never allows
// (only one that spells the option out does). A word only known at run time where such an
// option could stand, and arguments xargs adds at run time, count as dangerous too: no pattern
// can spell them out. Read with the shared parser (args.ts); linear in the words. The
// table itself is danger-table.ts.
import type { ShellWord } from '../shell/types';
import { basename } from '../shell/words';
import { mayBeOption, oldStyleTar, parsedArgs, type ParsedOption } from './args';
import { DANGER_TABLE, type Danger } from './danger-table';

export type { Danger };

const NO_DANGERS: readonly Danger[] = [];
const cache = new WeakMap<readonly ShellWord[], readonly Danger[]>();

/** The dangerous options of one command (its innermost form), `openArgs` if xargs adds arguments. */
export function dangersOf(words: readonly ShellWord[], openArgs: boolean): readonly Danger[] {
  let dangers = cache.get(words);
  if (dangers === undefined) {
    dangers = scan(words, openArgs);
    cache.set(words, dangers);
  }
  return dangers;
}

function scan(words: readonly ShellWord[], openArgs: boolean): readonly Danger[] {
  const program = words[0];
  if (!program || program.dynamic) return NO_DANGERS;
  const program0 = basename(program.value);
  const spec = Object.hasOwn(DANGER_TABLE, program0) ? DANGER_TABLE[program0] : undefined;
  if (!spec) return NO_DANGERS;
  const args = parsedArgs(oldStyleTar(words));
  const found: Danger[] = [];
  const name = args.program;
  const subAt = args.subIndex ?? Infinity;
  for (const option of args.options) {
    const table = option.index < subAt || args.sub === undefined ? spec.options : spec.subOptions;
    const why = table && Object.hasOwn(table, option.name) ? table[option.name] : undefined;
    if (why) found.push({ word: words[option.index], label: `${name} ${spelling(option, words)}`, why });
    else if (spec.word) {
      const byWord = spec.word(words[option.index]!.value);
      if (byWord)
        found.push({ word: words[option.index], label: `${name} ${words[option.index]!.value}`, why: byWord });
    }
  }
  if (args.sub !== undefined && spec.subcommands && Object.hasOwn(spec.subcommands, args.sub)) {
    found.push({ word: words[args.subIndex!], label: `${name} ${args.sub}`, why: spec.subcommands[args.sub]! });
  }
  spec.check?.(args, words, found);
  const end = args.endOfOptions ?? Infinity;
  const unknown = args.dynamic.find((d) => d.index < end && mayBeOption(d.word));
  if (unknown)
    found.push({
      label: `${name} ${unknown.word.value}`,
      why: `may hold one of ${name}'s dangerous options (the word is only known at run time)`,
    });
  if (openArgs)
    found.push({
      label: `xargs ${name}`,
      why: `may pass ${name} its dangerous options (xargs adds arguments at run time)`,
    });
  if (found.length === 0) return NO_DANGERS;
  // One entry per word (a cluster like `-TT` holds the same danger twice).
  return found.filter(
    (d, i) => d.word === undefined || found.findIndex((e) => e.word === d.word && e.why === d.why) === i,
  );
}

function spelling(option: ParsedOption, words: readonly ShellWord[]): string {
  if (option.letter !== undefined) return `-${option.letter}`;
  const written = words[option.index]!.value;
  const eq = written.indexOf('=');
  return eq < 0 ? written : written.slice(0, eq);
}
