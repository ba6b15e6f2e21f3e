// Does a compiled rule match one unit of a call? A unit is a simple command of a shell command
// (its part), or the whole call for other tools. Two modes: `may` for deny and ask rules (an
// unknown value may match: fail safe), `must` for allow rules and grants (only what is known).
// Every match is paid for from the evaluation's work budget before it runs (limits.ts); a value
// too long to match (MAX_VALUE_LENGTH) may match deny and ask rules but never allow rules.
import { kindMatcher, type CompiledCondition, type CompiledPattern, type CompiledRule } from './compile';
import { normalizeHost } from './hosts';
import { intersectionCost, mayIntersect, patternSegments, type PathShape } from './path-shape';
import { resolvePath, type PathContext } from './paths';
import { normalizeUrl } from './urls';
import { compileFlagPattern, matchFlags } from './programs/flagset';
import { matchCommand, type CommandPattern, type MatchMode } from './shell/pattern';
import { parseCommand } from './shell/parse';
import type { ParsedCommand, ShellPart, ShellWord } from './shell/types';
import { basename, displayWords } from './shell/words';
import type { ParamKind, ToolCall } from './types';
import { MAX_VALUE_LENGTH, RULE_STEPS, type WorkBudget } from './limits';

// Module-level copies: an imported binding is a getter call in bundled code, and these sit in the hottest loop.
const MAX_LENGTH = MAX_VALUE_LENGTH;
const PER_RULE = RULE_STEPS;

export interface PreparedCall {
  call: ToolCall;
  /** The agent name; calls without one come from `main`. */
  agent: string;
  kindOf(param: string): ParamKind;
  paths: PathContext;
  /** The param whose shell command is split into parts, if any. */
  commandParam?: string;
  /** Resolved path values by param, computed once per call. */
  resolved?: Map<string, string>;
  /** Work left for this evaluation; once exhausted, no rule is decided any more. */
  work: WorkBudget;
  /** The absolute directory a shell command starts in. */
  start?: string;
  /** A file a shell part may touch, standing in for the path param of a file rule (follow.ts). */
  pathShape?: PathShape;
  /**
   * A path param naming a directory read with everything below it (EvaluationContext.searchRoot):
   * deny and ask rules match it when they match the directory or any path beneath it.
   */
  searchRoot?: string;
  /** A param whose value is only known at run time (a URL built from an expansion): it may match anything. */
  unknown?: string;
}

/** Pays for looking at `count` rules for one unit, up front (cheaper than one charge per rule). */
export function rulesFit(prep: PreparedCall, count: number): boolean {
  return count === 0 || prep.work.charge(count * PER_RULE);
}

/** Pays for matching `length` characters at `weight` steps each (and the call itself). */
function pay(prep: PreparedCall, length: number, weight: number): boolean {
  return prep.work.charge(1 + length * weight);
}

function resolvedPath(prep: PreparedCall, key: string, value: string): string {
  prep.resolved ??= new Map();
  let absolute = prep.resolved.get(key);
  if (absolute === undefined) {
    absolute = resolvePath(value, prep.paths);
    prep.resolved.set(key, absolute);
  }
  return absolute;
}

export interface Unit {
  part?: ShellPart;
  /** Why this unit cannot be seen statically; it is never allowed. */
  opaque?: string;
  /** Steps of matching one command pattern word against the part, every view: see unitOf. */
  cost?: number;
}

/** A shell part as a unit; a command pattern costs at most `cost` steps per pattern word against it. */
export function unitOf(part: ShellPart): Unit {
  return { part, opaque: part.opaque, cost: part.views.length * (1 + part.text.length + part.words.length) };
}

/**
 * Whether the rule matches the unit. The caller pays RULE_STEPS per rule it looks at (rulesFit);
 * check `prep.work.exhausted` after: then the answer is unknown.
 */
export function ruleMatches(rule: CompiledRule, prep: PreparedCall, unit: Unit, mode: MatchMode): boolean {
  if (rule.agent && !rule.agent(prep.agent)) return false;
  for (const param of rule.params) {
    if (!patternMatches(param, prep, unit, mode)) return false;
  }
  for (const condition of rule.conditions) {
    if (!conditionHolds(condition, prep, unit, mode)) return false;
  }
  return true;
}

/** True if the rule looks at the shell command being split into parts (then it is a command rule). */
export function constrainsCommand(rule: CompiledRule, prep: PreparedCall): boolean {
  if (!prep.commandParam) return false;
  return (
    rule.params.some((p) => p.key === prep.commandParam) || rule.conditions.some((c) => c.key === prep.commandParam)
  );
}

function paramValue(call: ToolCall, key: string): unknown {
  if (Object.hasOwn(call.params, key)) return call.params[key];
  if (!key.includes('.')) return undefined;
  let value: unknown = call.params;
  for (const segment of key.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function patternMatches(pattern: CompiledPattern, prep: PreparedCall, unit: Unit, mode: MatchMode): boolean {
  if (prep.unknown === pattern.key) return mode === 'may';
  const value = paramValue(prep.call, pattern.key);
  if (value === undefined) return false;
  let kind = prep.kindOf(pattern.key);
  if (kind === 'command' && pattern.key !== prep.commandParam) kind = 'text';
  const matcher = kindMatcher(pattern, kind, prep.paths);
  if (matcher.kind === 'invalid') return mode === 'may';
  if (matcher.kind === 'command') {
    if (!unit.part) return mode === 'may';
    // Deny and ask rules also read options as sets (flagset.ts): about as much work again.
    const steps = (unit.cost ?? 1) * matcher.pattern.words.length * matcher.pattern.weight;
    return prep.work.charge(mode === 'may' ? 2 * steps : steps) && partMatches(matcher.pattern, unit.part, mode);
  }
  if (matcher.kind === 'path' && prep.pathShape) return mode === 'may' && shapeMatches(pattern, prep, prep.pathShape);
  let text: string;
  if (matcher.kind === 'text') text = asText(value);
  else if (typeof value !== 'string') return mode === 'may';
  else if (matcher.kind === 'path') {
    text = resolvedPath(prep, pattern.key, value);
    if (mode === 'may' && prep.searchRoot === pattern.key && text.length <= MAX_LENGTH)
      return (
        (pay(prep, text.length, matcher.matcher.weight) && matcher.matcher.test(text)) ||
        shapeMatches(pattern, prep, belowShape(text))
      );
  } else {
    const url = normalizeUrl(value);
    if (!url) return mode === 'may';
    text = url.href;
  }
  if (text.length > MAX_LENGTH) return mode === 'may';
  return pay(prep, text.length, matcher.matcher.weight) && matcher.matcher.test(text);
}

/** Everything below an absolute directory (itself included, by the literal test above): `grep -r`'s reach. */
function belowShape(directory: string): PathShape {
  const names = directory.split('/').filter((name) => name !== '');
  return { segments: [...names.map((name) => ({ kind: 'name' as const, name })), { kind: 'any' }], dotglob: true };
}

/** Does a path pattern may-match a file only partly known (path-shape.ts)? */
function shapeMatches(pattern: CompiledPattern, prep: PreparedCall, shape: PathShape): boolean {
  const key = `segments\u0000${prep.paths.key}`;
  let segments = pattern.segments?.key === key ? pattern.segments.value : undefined;
  if (!segments) {
    segments = patternSegments(pattern.pattern, prep.paths);
    pattern.segments = { key, value: segments };
  }
  return prep.work.charge(intersectionCost(segments, shape)) && mayIntersect(segments, shape);
}

/** Allow rules see the part's words; deny and ask rules see every view, a program path also by its basename. */
export function partMatches(pattern: CommandPattern, part: ShellPart, mode: MatchMode): boolean {
  if (mode === 'must') return matchCommand(pattern, part.words, 'must', part.openArgs);
  if (pattern.flags === undefined) pattern.flags = compileFlagPattern(pattern) ?? null;
  const flags = pattern.flags;
  for (const view of part.views) {
    if (matchCommand(pattern, view, 'may', part.openArgs)) return true;
    const program = view[0];
    if (program && !program.dynamic && program.value.includes('/')) {
      const byName: ShellWord[] = [{ ...program, value: basename(program.value) }, ...view.slice(1)];
      if (matchCommand(pattern, byName, 'may', part.openArgs)) return true;
    }
    if (flags && matchFlags(flags, view, part.openArgs)) return true;
  }
  return false;
}

function programsOf(part: ShellPart): string[] {
  const names: string[] = [];
  for (const view of part.views) {
    const program = view[0];
    if (program && !program.dynamic) names.push(basename(program.value));
  }
  return names;
}

/**
 * A program list (`command_blacklist`, `command_ask_always`) holds for a deny or ask rule when any
 * program the part may run (any view, wrappers included) is listed; for an allow rule only when
 * the program of the part's words is, the form every allow rule reads: listing `ls` allows
 * `timeout 5 ls` but not `sudo ls`.
 */
function listedPart(part: ShellPart, programs: ReadonlySet<string>, mode: MatchMode): boolean {
  if (mode === 'may') return programsOf(part).some((p) => programs.has(p));
  const program = part.words[0];
  return program !== undefined && !program.dynamic && programs.has(basename(program.value));
}

/**
 * The same for a whole command in a param that is not the shell command: for a deny or ask rule
 * any part; for an allow rule every part, none of them opaque and no substitution anywhere.
 */
function listedCommand(command: ParsedCommand, programs: ReadonlySet<string>, mode: MatchMode): boolean {
  const { parts } = command;
  if (mode === 'may') return parts.some((part) => listedPart(part, programs, mode));
  if (command.hasSubstitution || parts.length === 0) return false;
  return parts.every((part) => !part.opaque && listedPart(part, programs, mode));
}

function conditionHolds(condition: CompiledCondition, prep: PreparedCall, unit: Unit, mode: MatchMode): boolean {
  if (prep.unknown === condition.key) return mode === 'may';
  const value = paramValue(prep.call, condition.key);
  if (value === undefined) return false;
  const kind = prep.kindOf(condition.key);
  // A file only partly known, or a directory searched with everything below it: only a glob can be
  // tested against what is known of it.
  if ((prep.pathShape || prep.searchRoot === condition.key) && kind === 'path' && condition.op !== 'glob')
    return mode === 'may';
  const perPart = condition.key === prep.commandParam;
  if (condition.op === 'glob') return patternMatches(condition.pattern!, prep, unit, mode);
  if (perPart && condition.op === 'regex') return partRegex(condition, prep, unit, mode);
  if (perPart && (condition.op === 'command_blacklist' || condition.op === 'command_ask_always')) {
    return unit.part ? listedPart(unit.part, condition.programs!, mode) : mode === 'may';
  }
  const text =
    condition.op === 'eq' || condition.op === 'regex' ? asText(value) : typeof value === 'string' ? value : undefined;
  if (text === undefined) return mode === 'may';
  if (text.length > MAX_LENGTH) return mode === 'may';
  switch (condition.op) {
    case 'eq':
      return pay(prep, text.length + condition.value.length, 1) && equals(kind, value, condition.value, prep);
    case 'regex':
      return pay(prep, text.length, condition.regex!.weight) && condition.regex!.test(text);
    case 'host': {
      if (!pay(prep, text.length, 1)) return false;
      const host = kind === 'url' ? normalizeUrl(text)?.host : normalizeHost(text);
      return host ? pay(prep, host.length, condition.hostWeight!) && condition.hosts!(host) : mode === 'may';
    }
    case 'command_blacklist':
    case 'command_ask_always':
      return pay(prep, text.length, 1) && listedCommand(parseCommand(text), condition.programs!, mode);
    case 'no_command_substitution':
      return pay(prep, text.length, 1) && parseCommand(text).hasSubstitution;
  }
}

/** A regex condition on the shell command: tested on each part (its every view for deny and ask rules). */
function partRegex(condition: CompiledCondition, prep: PreparedCall, unit: Unit, mode: MatchMode): boolean {
  const regex = condition.regex!;
  if (!unit.part) return mode === 'may';
  const texts = mode === 'must' ? [unit.part.text] : unit.part.views.map(displayWords);
  for (const text of texts) {
    if (text.length > MAX_LENGTH) {
      if (mode === 'may') return true;
      continue;
    }
    if (!pay(prep, text.length, regex.weight)) return false;
    if (regex.test(text)) return true;
  }
  return false;
}

function equals(kind: ParamKind, value: unknown, expected: string, prep: PreparedCall): boolean {
  if (typeof value !== 'string') return asText(value) === expected;
  if (kind === 'path') return resolvePath(value, prep.paths) === resolvePath(expected, prep.paths);
  if (kind === 'url') {
    const a = normalizeUrl(value);
    const b = normalizeUrl(expected);
    return a !== undefined && b !== undefined && a.href === b.href;
  }
  if (kind === 'command') return value.trim() === expected.trim();
  return value === expected;
}
