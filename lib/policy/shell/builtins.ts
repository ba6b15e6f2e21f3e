// Builtins that evaluate text given as an argument: names whose subscripts bash evaluates
// (`printf -v`, `read`, `mapfile`, `getopts`, `wait -p`, `unset`, `test -v`, the declaration
// builtins), arithmetic (`let`, `declare -i`), and code (`trap`, `alias`, `mapfile -C`,
// `compgen -C/-W`, `source` of a stream). Also `hash -p`, which rebinds a command name. Checked on the command after
// its wrappers are unwrapped (`builtin read`, `command printf -v`).
import type { Assignment, Word } from 'unbash';
import type { ScriptFacts } from './facts';
import { Level, literalTemplate, NUMERIC_SPECIALS, templateOf, type Template } from './template';
import type { ShellWord } from './types';
import { displayWords } from './words';

/** The syntax node each word came from. */
export type Nodes = ReadonlyMap<ShellWord, Word | Assignment>;

const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
const CHECKED = new Set([
  'let',
  'printf',
  'read',
  'mapfile',
  'readarray',
  'getopts',
  'wait',
  'unset',
  'test',
  '[',
  'trap',
  'alias',
  'compgen',
  'source',
  '.',
  'hash',
  ...DECLARATIONS,
]);
const UNKNOWN_WORD: Template = { text: '\ue000', holes: [{ level: Level.Unknown, names: [], floor: Level.Arith }] };

/** One builtin invocation being checked. */
class Call {
  readonly text: string;
  constructor(
    readonly words: readonly ShellWord[],
    private readonly nodes: Nodes,
    readonly facts: ScriptFacts,
  ) {
    this.text = displayWords(words);
  }

  node(word: ShellWord): Word | Assignment | undefined {
    return this.nodes.get(word);
  }

  /** The word as bash sees it after expansion (arguments also undergo pathname expansion). */
  template(word: ShellWord): Template {
    const node = this.nodes.get(word);
    if (node?.type === 'Word') return templateOf(node, true);
    return word.dynamic ? UNKNOWN_WORD : literalTemplate(word.value);
  }

  /** A word that names a variable the builtin assigns (a value of `level`). */
  named(word: ShellWord, level: Level): void {
    const t = this.template(word);
    this.facts.variableName(t, this.text);
    const base = t.text.split('[')[0]!;
    if (/^[A-Za-z_]\w*$/.test(base)) this.facts.assign(base, level, !t.text.includes('['), this.text);
  }
}
const STREAM = /^(-|\/dev\/(stdin|fd\/.*)|\/proc\/[^/]+\/fd\/.*)$/;

/** True if a command with this word may be a builtin checked here (then its words' nodes are kept). */
export function mayBeChecked(word: ShellWord): boolean {
  return !word.dynamic && CHECKED.has(word.value);
}

/** Checks a builtin's arguments. Returns the text of a `trap` action, which is code to parse. */
export function inspectBuiltin(words: readonly ShellWord[], nodes: Nodes, facts: ScriptFacts): ShellWord | undefined {
  const first = words[0];
  if (!first || first.dynamic || !CHECKED.has(first.value)) return undefined;
  return builtin(first.value, words.slice(1), new Call(words, nodes, facts));
}

function builtin(name: string, args: readonly ShellWord[], call: Call): ShellWord | undefined {
  const { facts, text } = call;
  switch (name) {
    case 'let':
      for (const arg of args) facts.arithmetic(call.template(arg), text);
      return undefined;
    case 'printf': {
      const v = optionArgument(args, 'v', '');
      if (v) call.named(v, Level.Unknown);
      return undefined;
    }
    case 'read':
      return names(args, 'adinNptu', 'a', 'REPLY', call);
    case 'mapfile':
    case 'readarray':
      if (hasOption(args, 'C', 'dunOsCc')) facts.issue(text, `${name} -C runs its callback as code`);
      return names(args, 'dunOsCc', '', 'MAPFILE', call, 1);
    case 'getopts':
      if (args[1]) call.named(args[1], Level.Clean);
      facts.assign('OPTARG', Level.Unknown, true, text);
      return undefined;
    case 'wait': {
      const p = optionArgument(args, 'p', '');
      if (p) call.named(p, Level.Arith);
      return undefined;
    }
    case 'unset':
      if (hasOption(args, 'f', '')) return undefined;
      for (const arg of operands(args, '')) {
        call.named(arg, Level.Arith);
        if (!arg.dynamic && !arg.value.includes('[')) facts.markUnset(arg.value); // not just an element
      }
      return undefined;
    case 'test':
    case '[':
      testArguments(name === '[' && args[args.length - 1]?.value === ']' ? args.slice(0, -1) : args, call);
      return undefined;
    case 'trap':
      return trapAction(args, facts, text);
    case 'alias':
      if (args.some((a) => a.dynamic || a.value.includes('=')))
        facts.issue(text, 'an alias is code that runs where its name is used');
      return undefined;
    case 'compgen':
      if (args.some((a) => a.dynamic) || hasOption(args, 'C', 'oAGWPSXFC') || hasOption(args, 'W', 'oAGWPSXFC'))
        facts.issue(text, 'compgen -C runs a command and -W expands its word list');
      return undefined;
    case 'source':
    case '.':
      // A script from a pipe, a here-string or a process substitution is text of this command.
      if (args[0] && (args[0].dynamic || STREAM.test(args[0].value)))
        facts.issue(text, `${name} runs text that is only known at run time`);
      return undefined;
    case 'hash':
      if (args.some((a) => a.dynamic) || hasOption(args, 'p', 'pt'))
        facts.issue(text, 'hash -p binds a command name to a file: later commands may run another program');
      return undefined;
  }
  if (DECLARATIONS.has(name)) declaration(name, args, call);
  return undefined;
}

/** Option letters of leading `-x` words (up to `--` or the first operand); `withArg`: letters taking a value. */
function* options(
  args: readonly ShellWord[],
  withArg: string,
): Generator<{ letter: string; value?: ShellWord; index: number }> {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.dynamic || !/^[-+]./.test(arg.value) || arg.value === '--') return;
    for (let k = 1; k < arg.value.length; k++) {
      const letter = arg.value[k]!;
      if (!withArg.includes(letter)) {
        yield { letter, index: i };
        continue;
      }
      const rest = arg.value.slice(k + 1);
      if (rest !== '') yield { letter, value: { value: rest, dynamic: false, splittable: false }, index: i };
      else yield { letter, value: args[++i], index: i };
      break;
    }
  }
}

function hasOption(args: readonly ShellWord[], letter: string, withArg: string): boolean {
  for (const o of options(args, withArg)) if (o.letter === letter) return true;
  return false;
}

function optionArgument(args: readonly ShellWord[], letter: string, withArg: string): ShellWord | undefined {
  for (const o of options(args, letter + withArg)) if (o.letter === letter) return o.value;
  return undefined;
}

/** The words after the options. A dynamic word in option position may be anything: it counts as an operand. */
function operands(args: readonly ShellWord[], withArg: string): readonly ShellWord[] {
  let end = 0;
  for (const o of options(args, withArg)) end = o.index + 1;
  if (args[end]?.value === '--' && !args[end]!.dynamic) end++;
  return args.slice(end);
}

function names(
  args: readonly ShellWord[],
  withArg: string,
  arrayOption: string,
  fallback: string,
  call: Call,
  max = Infinity,
): undefined {
  if (arrayOption) {
    const array = optionArgument(args, arrayOption, withArg);
    if (array) call.named(array, Level.Unknown);
  }
  const rest = operands(args, withArg).slice(0, max);
  for (const arg of rest) call.named(arg, Level.Unknown);
  if (rest.length === 0) call.facts.assign(fallback, Level.Unknown, true, call.text);
  return undefined;
}

/** `test`/`[`: the operand of `-v` is a name. An argument only known at run time may be `-v`. */
function testArguments(args: readonly ShellWord[], call: Call): void {
  const { facts, text } = call;
  const why = 'test may read this as `-v NAME` and evaluate the subscript of NAME';
  for (let k = 0; k < args.length; k++) {
    const arg = args[k]!;
    const t = call.template(arg);
    if (t.holes.length > 0 && (arg.splittable || !arg.dynamic) && !facts.require(t.holes, Level.Clean, text, why))
      return;
    const mayBeV = t.holes.length > 0 || arg.value === '-v';
    if (mayBeV && args[k + 1]) facts.variableName(call.template(args[k + 1]!), text);
  }
}

function trapAction(args: readonly ShellWord[], facts: ScriptFacts, text: string): ShellWord | undefined {
  const rest = operands(args, '');
  if (rest.length < 2) return undefined;
  const action = rest[0]!;
  if (action.dynamic) {
    facts.issue(text, 'trap runs text that is only known at run time');
    return undefined;
  }
  if (action.value === '-' || /^\d+$/.test(action.value)) return undefined;
  return action;
}

function declaration(builtin: string, args: readonly ShellWord[], call: Call): void {
  const { facts, text } = call;
  const flags = new Set<string>();
  for (const o of options(args, '')) if (args[o.index]!.value.startsWith('-')) flags.add(o.letter);
  if (flags.has('f') || flags.has('F')) return;
  // `export -n` un-exports; for the others -n declares a nameref.
  if (flags.has('n') && builtin !== 'export') {
    facts.issue(text, 'a nameref (-n) makes later uses of the name refer to a variable named at run time');
    return;
  }
  for (const arg of operands(args, '')) {
    const node = call.node(arg);
    let base: string | undefined;
    if (node?.type === 'Assignment') {
      base = node.name;
    } else {
      const t = call.template(arg);
      const eq = t.text.indexOf('=');
      const name: Template = { text: eq < 0 ? t.text : t.text.slice(0, eq), holes: t.holes };
      facts.variableName(name, text);
      const literal = name.text.split('[')[0]!;
      if (/^[A-Za-z_]\w*$/.test(literal)) base = literal;
      if (base && eq >= 0)
        facts.assign(base, { text: t.text.slice(eq + 1), holes: t.holes }, !name.text.includes('['), text);
    }
    if (!base) continue;
    if (flags.has('i')) facts.markInteger(base);
    if (flags.has('A')) facts.markAssociative(base);
    // A redeclared RANDOM is a plain variable; `local a` (or declare in a function) shadows an array.
    const shadows = builtin !== 'export' && builtin !== 'readonly' && !flags.has('A') && !flags.has('p');
    if (shadows || NUMERIC_SPECIALS.has(base)) facts.markUnset(base);
  }
}
