// Reads a command's words the way its program does: which words are options (and which of
// those take the next word as their value), which is the subcommand, which are operands. One
// parser serves command patterns and commands alike, so a pattern and a command that spell the
// same invocation get the same reading. Linear in the words; never throws.
import type { ShellWord } from '../shell/types';
import { basename } from '../shell/words';
import { specOf, subSpec, type ProgramSpec } from './specs';

export interface ParsedOption {
  /** Canonical name: the long name for aliased options, else the letter or the long name as written. */
  name: string;
  /** Written as `--name` (a long option may be abbreviated). */
  long: boolean;
  /** The letter, for a short option. */
  letter?: string;
  /** The option's value, attached (`-n5`, `--x=5`) or the next word. */
  value?: ShellWord;
  /** Index of the word that holds the option. */
  index: number;
}

export interface ParsedOperand {
  word: ShellWord;
  index: number;
}

export interface ParsedArgs {
  program: string;
  /** The subcommand path, canonical (`docker container rm` -> `rm`), for programs that have them. */
  sub?: string;
  /** Index of the (last) subcommand word read, also when a group was left open. */
  subIndex?: number;
  /** The subcommand could not be read: a word only known at run time came before it. */
  subUnknown: boolean;
  options: ParsedOption[];
  operands: ParsedOperand[];
  /** Words only known at run time outside option values: each may be options or operands. */
  dynamic: ParsedOperand[];
  /** Index of `--`, or of the first operand of a program that reads options only before it: no option after it. */
  endOfOptions?: number;
  /** The spec the words after the subcommand were read with. */
  spec: ProgramSpec;
}

const NEGATIVE_NUMBER = /^-\d+$/;

/** A table entry; never one inherited from Object.prototype (`constructor`). */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A word only known at run time that may turn out to be an option: it does not start with literal text other than `-`. */
export function mayBeOption(word: ShellWord): boolean {
  return word.dynamic && /^["']*([$`-]|$)/.test(word.value);
}

/** Reads `words` (words[0] is the program). */
export function parseArgs(words: readonly ShellWord[]): ParsedArgs {
  const program = basename(words[0]?.value ?? '');
  const top = specOf(program);
  let spec = top;
  const result: ParsedArgs = { program, subUnknown: false, options: [], operands: [], dynamic: [], spec };
  // Looking for the subcommand: until the first operand (or a run-time word) of such a program.
  let seekingSub = top.subcommands !== undefined;
  let optionsDone = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const value = word.value;
    if (word.dynamic) {
      result.dynamic.push({ word, index: i });
      if (seekingSub) {
        result.subUnknown = true;
        result.sub = undefined;
        seekingSub = false;
      }
      result.operands.push({ word, index: i });
      continue;
    }
    if (!optionsDone && value === '--') {
      optionsDone = true;
      result.endOfOptions = i;
      continue;
    }
    if (!optionsDone && isOptionWord(value, spec)) {
      const before = result.options.length;
      i = readOption(words, i, spec, result);
      const last = result.options[result.options.length - 1];
      if (
        spec.endsOptions &&
        result.options.length > before &&
        last?.letter !== undefined &&
        spec.endsOptions.includes(last.letter) &&
        last.value
      ) {
        optionsDone = true;
        result.endOfOptions ??= i + 1;
      }
      continue;
    }
    if (seekingSub) {
      const path = result.sub === undefined ? value : `${result.sub} ${value}`;
      result.subIndex = i;
      const child = own(spec.subcommands, value);
      if (child?.subcommands) {
        // A group (`docker container`): its first operand is the real subcommand.
        spec = child;
        result.sub = path;
        continue;
      }
      seekingSub = false;
      result.sub = own(top.subAliases, path) ?? path;
      spec = subSpec(top, result.sub);
      result.spec = spec;
      continue;
    }
    result.operands.push({ word, index: i });
    // `git push origin +main` forces the push of main, like --force.
    if (spec.plusOperandOption && value.startsWith('+'))
      result.options.push({ name: spec.plusOperandOption, long: true, index: i });
    if (spec.optionsFirst && !optionsDone) {
      // `ssh host ls -la`: what follows the first operand belongs to something else.
      optionsDone = true;
      result.endOfOptions ??= i;
    }
  }
  return result;
}

function isOptionWord(value: string, spec: ProgramSpec): boolean {
  if (value.length < 2) return false;
  if (value.startsWith('-')) return !(spec.numbersAreOperands && NEGATIVE_NUMBER.test(value));
  return spec.plusOptions === true && value.startsWith('+');
}

/** Reads the option word at `i` into `result`; returns the index of the last word it used. */
function readOption(words: readonly ShellWord[], i: number, spec: ProgramSpec, result: ParsedArgs): number {
  const text = words[i]!.value;
  const next = words[i + 1];
  if (text.startsWith('+')) {
    result.options.push({ name: text, long: false, index: i });
    return i;
  }
  if (text.startsWith('--') || spec.singleDash) {
    const body = text.startsWith('--') ? text.slice(2) : text.slice(1);
    const eq = body.indexOf('=');
    const written = eq < 0 ? body : body.slice(0, eq);
    const name = own(spec.longAliases, written) ?? written;
    const option: ParsedOption = { name, long: text.startsWith('--'), index: i };
    if (eq >= 0) option.value = { value: body.slice(eq + 1), dynamic: false, splittable: false };
    else if (spec.longValue?.includes(name) && next) {
      option.value = next;
      result.options.push(option);
      return i + 1;
    }
    result.options.push(option);
    return i;
  }
  const letters = text.slice(1);
  for (let k = 0; k < letters.length; k++) {
    const letter = letters[k]!;
    const names = own(spec.aliases, letter) ?? letter;
    const takesValue = spec.shortValue?.includes(letter) === true;
    for (const name of names.split(' ')) {
      const option: ParsedOption = { name, long: false, letter, index: i };
      if (takesValue) {
        const rest = letters.slice(k + 1);
        if (rest !== '') option.value = { value: rest, dynamic: false, splittable: false };
        else if (next) option.value = next;
      }
      result.options.push(option);
    }
    if (takesValue) return letters.slice(k + 1) === '' && next ? i + 1 : i;
  }
  return i;
}

// Parsed once per word list: command views are shared by every rule that looks at them.
const parsedCache = new WeakMap<readonly ShellWord[], ParsedArgs>();

export function parsedArgs(words: readonly ShellWord[]): ParsedArgs {
  let parsed = parsedCache.get(words);
  if (!parsed) {
    parsed = parseArgs(words);
    parsedCache.set(words, parsed);
  }
  return parsed;
}

// Parsed once per command: the old-style form rewritten with a dash.
const tarForms = new WeakMap<readonly ShellWord[], readonly ShellWord[]>();

/** `tar xvf a.tar` (old style: the first word is a cluster of options without the dash) as `tar -xvf a.tar`. */
export function oldStyleTar(words: readonly ShellWord[]): readonly ShellWord[] {
  const first = words[1];
  if (basename(words[0]?.value ?? '') !== 'tar' || !first || first.dynamic || !/^[A-Za-z]+$/.test(first.value))
    return words;
  let form = tarForms.get(words);
  if (!form) tarForms.set(words, (form = [words[0]!, { ...first, value: `-${first.value}` }, ...words.slice(2)]));
  return form;
}
