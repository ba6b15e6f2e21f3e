// Rules indexed by their literal prefix, so a call only tests the rules that could match it:
// command rules by program (and subcommand, read like args.ts reads it), path rules by the
// literal directory their glob lies in. An index only ever leaves out rules that cannot match:
// a rule without such a prefix (a program glob, a regex condition, `/**`) is always a candidate,
// and so is every rule when the call's value cannot be looked up (not a string, too long, a
// subcommand only known at run time). Candidates come back in rule order.
import { kindMatcher, type CompiledRule } from './compile';
import { MAX_VALUE_LENGTH } from './limits';
import { parseArgs, parsedArgs } from './programs/args';
import { absolutePathGlob, pathGlobBase, type PathContext } from './paths';
import type { ShellWord } from './shell/types';
import { basename } from './shell/words';

/** Lists shorter than this are scanned as they are: an index would cost more than it saves. */
export const INDEX_FROM = 6;

const NONE: readonly CompiledRule[] = [];

/** The rules of several buckets, in rule order, each once. */
function merge(lists: readonly (readonly CompiledRule[])[]): readonly CompiledRule[] {
  let only: readonly CompiledRule[] | undefined;
  let count = 0;
  for (const list of lists) {
    if (list.length === 0) continue;
    count++;
    only = list;
  }
  if (count <= 1) return only ?? NONE;
  const all = lists.flat().sort((a, b) => a.index - b.index);
  return all.filter((rule, i) => i === 0 || all[i - 1] !== rule);
}

function push<K>(map: Map<K, CompiledRule[]>, key: K, rule: CompiledRule): void {
  const list = map.get(key);
  if (list) list.push(rule);
  else map.set(key, [rule]);
}

/** Command rules of one action, by the program (and subcommand) their pattern starts with. */
export class CommandIndex {
  private readonly unindexed: CompiledRule[] = [];
  private readonly byProgram = new Map<string, CompiledRule[]>();
  private readonly bySub = new Map<string, Map<string, CompiledRule[]>>();

  constructor(rules: readonly CompiledRule[], commandParam: string) {
    for (const rule of rules) this.add(rule, commandParam);
  }

  private add(rule: CompiledRule, param: string): void {
    for (const pattern of rule.params) {
      if (pattern.key !== param) continue;
      const key = commandKey(kindMatcher(pattern, 'command'));
      if (key) return this.file(rule, key);
    }
    for (const condition of rule.conditions) {
      if (condition.key !== param) continue;
      if (condition.op === 'glob' && condition.pattern) {
        const key = commandKey(kindMatcher(condition.pattern, 'command'));
        if (key) return this.file(rule, key);
      }
      if ((condition.op === 'command_blacklist' || condition.op === 'command_ask_always') && condition.programs) {
        for (const program of condition.programs) push(this.byProgram, program, rule);
        return;
      }
    }
    this.unindexed.push(rule);
  }

  private file(rule: CompiledRule, key: { program: string; sub?: string }): void {
    if (key.sub === undefined) return push(this.byProgram, key.program, rule);
    let subs = this.bySub.get(key.program);
    if (!subs) this.bySub.set(key.program, (subs = new Map()));
    push(subs, key.sub, rule);
  }

  /** The rules that could match any of these command forms (the views of a part). */
  candidates(views: readonly (readonly ShellWord[])[]): readonly CompiledRule[] {
    const lists: (readonly CompiledRule[])[] = [this.unindexed];
    for (const view of views) {
      const program = view[0];
      if (!program || program.dynamic) continue;
      this.collect(program.value, view, lists);
      if (program.value.includes('/')) this.collect(basename(program.value), view, lists);
    }
    return merge(lists);
  }

  private collect(program: string, view: readonly ShellWord[], lists: (readonly CompiledRule[])[]): void {
    const direct = this.byProgram.get(program);
    if (direct) lists.push(direct);
    const subs = this.bySub.get(program);
    if (!subs) return;
    const args = parsedArgs(view);
    if (args.subUnknown) {
      for (const list of subs.values()) lists.push(list);
      return;
    }
    const list = args.sub === undefined ? undefined : subs.get(args.sub);
    if (list) lists.push(list);
  }
}

/** The literal program and subcommand a command pattern starts with, if it does. */
function commandKey(matcher: ReturnType<typeof kindMatcher>): { program: string; sub?: string } | undefined {
  if (matcher.kind !== 'command') return undefined;
  const words = matcher.pattern.words;
  const first = words[0];
  if (!first || first.kind !== 'literal') return undefined;
  const reading = parseArgs(
    words.map((w) =>
      w.kind === 'literal'
        ? { value: w.text, dynamic: false, splittable: false }
        : { value: '*', dynamic: true, splittable: false },
    ),
  );
  const sub = reading.subUnknown || reading.subIndex === undefined ? undefined : reading.sub;
  // `**` before the subcommand may stand for several words: the subcommand could be anywhere.
  if (sub !== undefined && words.slice(1, reading.subIndex! + 1).some((w) => w.kind === 'anyN'))
    return { program: first.text };
  return sub === undefined ? { program: first.text } : { program: first.text, sub };
}

/** Path rules of one action for one param and one workspace, by the literal directory of their glob. */
export class PathIndex {
  private readonly unindexed: CompiledRule[] = [];
  private readonly byDir = new Map<string, CompiledRule[]>();

  constructor(rules: readonly CompiledRule[], param: string, paths: PathContext) {
    for (const rule of rules) {
      const pattern = rule.params.find((p) => p.key === param);
      const base =
        pattern && kindMatcher(pattern, 'path', paths).kind === 'path'
          ? pathGlobBase(absolutePathGlob(pattern.pattern, paths))
          : undefined;
      if (base === undefined) this.unindexed.push(rule);
      else push(this.byDir, base, rule);
    }
  }

  /** The rules that could match this absolute, normalized path. */
  candidates(absolute: string): readonly CompiledRule[] {
    if (absolute.length > MAX_VALUE_LENGTH) return merge([this.unindexed, ...this.byDir.values()]);
    const lists: (readonly CompiledRule[])[] = [this.unindexed];
    const root = this.byDir.get('/');
    if (root) lists.push(root);
    for (let slash = absolute.indexOf('/', 1); ; slash = absolute.indexOf('/', slash + 1)) {
      const list = this.byDir.get(slash < 0 ? absolute : absolute.slice(0, slash));
      if (list) lists.push(list);
      if (slash < 0) break;
    }
    return merge(lists);
  }

  /** Every rule (for values the index cannot look up). */
  all(): readonly CompiledRule[] {
    return merge([this.unindexed, ...this.byDir.values()]);
  }
}
