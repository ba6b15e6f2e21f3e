// The rules one unit of a call is tested against: the tool's rules by action, narrowed by the
// indexes of rule-index.ts (built once per tool and param, and for paths per workspace).
import type { CompiledRule, RulesByAction } from './compile';
import { MAX_VALUE_LENGTH } from './limits';
import type { PreparedCall, Unit } from './match';
import { resolvePath } from './paths';
import { CommandIndex, INDEX_FROM, PathIndex } from './rule-index';

export interface UnitRules {
  deny: readonly CompiledRule[];
  ask: readonly CompiledRule[];
  allow: readonly CompiledRule[];
}

const ACTIONS = ['deny', 'ask', 'allow'] as const;
const MAX_INDEXES = 32;

type Indexes<T> = Record<(typeof ACTIONS)[number], T | undefined>;

function indexesOf<T>(rules: RulesByAction, key: string, build: (list: CompiledRule[]) => T): Indexes<T> {
  rules.indexes ??= new Map();
  let found = rules.indexes.get(key) as Indexes<T> | undefined;
  if (!found) {
    found = { deny: undefined, ask: undefined, allow: undefined };
    for (const action of ACTIONS) if (rules[action].length >= INDEX_FROM) found[action] = build(rules[action]);
    if (rules.indexes.size >= MAX_INDEXES) rules.indexes.clear();
    rules.indexes.set(key, found);
  }
  return found;
}

/** Whether any list is long enough to be indexed (most tools have a few rules: no lookup at all). */
function worthIndexing(rules: RulesByAction): boolean {
  return rules.deny.length >= INDEX_FROM || rules.ask.length >= INDEX_FROM || rules.allow.length >= INDEX_FROM;
}

let indexing = true;

/** Runs `fn` with every rule a candidate (the reference the index is tested against). */
export function withoutIndexes<T>(fn: () => T): T {
  indexing = false;
  try {
    return fn();
  } finally {
    indexing = true;
  }
}

/** The candidate rules for one unit: for a shell part by its programs, for a path by its directories. */
export function unitRules(rules: RulesByAction, prep: PreparedCall, unit: Unit): UnitRules {
  if (!indexing || !worthIndexing(rules)) return rules;
  const part = unit.part;
  if (prep.commandParam !== undefined && part) {
    const index = indexesOf(rules, prep.commandParam, (list) => new CommandIndex(list, prep.commandParam!));
    return {
      deny: index.deny?.candidates(part.views) ?? rules.deny,
      ask: index.ask?.candidates(part.views) ?? rules.ask,
      allow: index.allow?.candidates([part.words]) ?? rules.allow,
    };
  }
  if (prep.commandParam !== undefined) return rules;
  const param = pathParam(prep);
  if (param === undefined) return rules;
  const value = prep.call.params[param];
  if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH) return rules;
  const absolute = resolvePath(value, prep.paths);
  const index = indexesOf(
    rules,
    `path\u0000${param}\u0000${prep.paths.key}`,
    (list) => new PathIndex(list, param, prep.paths),
  );
  // A directory searched with everything below it: a deny or ask rule for a path beneath it counts.
  if (prep.searchRoot === param) return { ...rules, allow: index.allow?.candidates(absolute) ?? rules.allow };
  return {
    deny: index.deny?.candidates(absolute) ?? rules.deny,
    ask: index.ask?.candidates(absolute) ?? rules.ask,
    allow: index.allow?.candidates(absolute) ?? rules.allow,
  };
}

/** The call's first path param, the one path rules are indexed by. */
function pathParam(prep: PreparedCall): string | undefined {
  for (const key of Object.keys(prep.call.params)) if (prep.kindOf(key) === 'path') return key;
  return undefined;
}
