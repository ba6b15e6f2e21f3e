// Does a compiled rule match one unit of a call? A unit is a simple command of a shell command
// (its part), or the whole call for other tools. Two modes: `may` for deny and ask rules (an
// unknown value may match: fail safe), `must` for allow rules and grants (only what is known).
import { kindMatcher, type CompiledCondition, type CompiledPattern, type CompiledRule } from './compile';
import { normalizeHost } from './hosts';
import { resolvePath, type PathContext } from './paths';
import { normalizeUrl } from './urls';
import { matchCommand, type CommandPattern, type MatchMode } from './shell/pattern';
import { parseCommand } from './shell/parse';
import type { ShellPart, ShellWord } from './shell/types';
import { basename, displayWords } from './shell/words';
import type { ParamKind, ToolCall } from './types';

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
}

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
  return rule.params.some((p) => p.key === prep.commandParam) || rule.conditions.some((c) => c.key === prep.commandParam);
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
  const value = paramValue(prep.call, pattern.key);
  if (value === undefined) return false;
  let kind = prep.kindOf(pattern.key);
  if (kind === 'command' && pattern.key !== prep.commandParam) kind = 'text';
  const matcher = kindMatcher(pattern, kind, prep.paths);
  if (matcher.kind === 'invalid') return mode === 'may';
  if (matcher.kind === 'text') return matcher.test(asText(value));
  if (matcher.kind === 'command') return unit.part ? partMatches(matcher.pattern, unit.part, mode) : mode === 'may';
  if (typeof value !== 'string') return mode === 'may';
  if (matcher.kind === 'path') return matcher.test(resolvedPath(prep, pattern.key, value));
  const url = normalizeUrl(value);
  return url ? matcher.test(url.href) : mode === 'may';
}

/** Allow rules see the part's words; deny and ask rules see every view, a program path also by its basename. */
export function partMatches(pattern: CommandPattern, part: ShellPart, mode: MatchMode): boolean {
  if (mode === 'must') return matchCommand(pattern, part.words, 'must', part.openArgs);
  for (const view of part.views) {
    if (matchCommand(pattern, view, 'may', part.openArgs)) return true;
    const program = view[0];
    if (program && !program.dynamic && program.value.includes('/')) {
      const byName: ShellWord[] = [{ ...program, value: basename(program.value) }, ...view.slice(1)];
      if (matchCommand(pattern, byName, 'may', part.openArgs)) return true;
    }
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

function conditionHolds(condition: CompiledCondition, prep: PreparedCall, unit: Unit, mode: MatchMode): boolean {
  const value = paramValue(prep.call, condition.key);
  if (value === undefined) return false;
  const kind = prep.kindOf(condition.key);
  const perPart = condition.key === prep.commandParam;
  switch (condition.op) {
    case 'eq':
      return equals(kind, value, condition.value, prep);
    case 'glob':
      return patternMatches(condition.pattern!, prep, unit, mode);
    case 'regex': {
      if (perPart) {
        if (!unit.part) return mode === 'may';
        if (mode === 'must') return condition.regex!.test(unit.part.text);
        return unit.part.views.some((view) => condition.regex!.test(displayWords(view)));
      }
      return condition.regex!.test(asText(value));
    }
    case 'host': {
      if (typeof value !== 'string') return mode === 'may';
      const host = kind === 'url' ? normalizeUrl(value)?.host : normalizeHost(value);
      return host ? condition.hosts!(host) : mode === 'may';
    }
    case 'command_blacklist':
    case 'command_ask_always': {
      if (perPart) return unit.part ? programsOf(unit.part).some((p) => condition.programs!.has(p)) : mode === 'may';
      if (typeof value !== 'string') return mode === 'may';
      return parseCommand(value).parts.some((part) => programsOf(part).some((p) => condition.programs!.has(p)));
    }
    case 'no_command_substitution':
      if (typeof value !== 'string') return mode === 'may';
      return parseCommand(value).hasSubstitution;
  }
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
