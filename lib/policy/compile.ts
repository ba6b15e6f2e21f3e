// Compiling a policy: validate once, build every matcher once, index rules by tool name.
// Param matchers depend on the param's kind, which depends on the called tool; they are built
// lazily per kind and cached on the rule. A pattern that cannot be compiled for a kind matches
// everything for deny/ask rules and nothing for allow rules: a broken rule never opens a door.
import { compileTextGlob, compileTextGlobMatcher, isLiteralGlob, type StringMatcher } from './glob';
import { compileHostList, splitList, type HostMatcher } from './hosts';
import type { PathMatcher } from './path-glob';
import type { PatternSegments } from './path-shape';
import { compilePathPattern, type PathContext } from './paths';
import { compileRegex, type RegexMatcher } from './regex';
import { compileUrlPattern, type UrlMatcher } from './urls';
import type { WildcardMatcher } from './wildcard';
import { compileCommandPattern, type CommandPattern } from './shell/pattern';
import {
  PolicySchema,
  RuleSchema,
  type Action,
  type Condition,
  type ParamKind,
  type Policy,
  type PolicyInput,
  type Rule,
} from './types';
import { PolicyValidationError, type PolicyIssue } from './errors';
import { BUILTIN_PARAM_KINDS } from './kinds';
import { Lru } from './lru';

export type KindMatcher =
  | { kind: 'text'; matcher: WildcardMatcher }
  | { kind: 'path'; matcher: PathMatcher }
  | { kind: 'url'; matcher: UrlMatcher }
  | { kind: 'command'; pattern: CommandPattern }
  | { kind: 'invalid'; error: string };

export interface CompiledPattern {
  key: string;
  pattern: string;
  /** Keyed by kind, and for paths by workspace root and home. */
  cache: Map<string, KindMatcher>;
  /** Its path glob by segments, for files a shell part may touch (path-shape.ts), for one workspace. */
  segments?: { key: string; value: PatternSegments };
}

export interface CompiledCondition {
  key: string;
  op: Condition['op'];
  value: string;
  pattern?: CompiledPattern;
  regex?: RegexMatcher;
  hosts?: HostMatcher;
  /** Steps one host test costs per character: one per pattern of the list. */
  hostWeight?: number;
  programs?: ReadonlySet<string>;
}

export interface CompiledRule {
  index: number;
  rule: Rule;
  action: Action;
  tool: StringMatcher;
  agent?: StringMatcher;
  params: CompiledPattern[];
  conditions: CompiledCondition[];
  /** What a decision by this rule says, made when first needed. */
  explanation?: string;
}

export interface RulesByAction {
  deny: CompiledRule[];
  ask: CompiledRule[];
  allow: CompiledRule[];
  /** Indexes of these lists, built when first needed (candidates.ts). */
  indexes?: Map<string, unknown>;
}

const COMPILED = Symbol.for('gatehouse.compiledPolicy');

export interface CompiledPolicy {
  readonly [COMPILED]: true;
  readonly policy: Policy;
  readonly rules: readonly CompiledRule[];
  /** The rules that can apply to a tool, by action, in rule order. */
  candidates(tool: string): RulesByAction;
}

export function isCompiledPolicy(value: unknown): value is CompiledPolicy {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[COMPILED] === true;
}

export function compilePolicy(input: PolicyInput | Policy): CompiledPolicy {
  const parsed = PolicySchema.safeParse(input);
  if (!parsed.success) throw PolicyValidationError.fromZod(parsed.error);
  const policy = parsed.data;
  const issues: PolicyIssue[] = [];
  const rules = policy.rules.map((rule, index) => compileRule(rule, index, issues, ['rules', index]));
  if (issues.length > 0) throw new PolicyValidationError(issues);
  return buildIndex(policy, rules);
}

/** Compiles grants (session "always allow" rules); invalid ones are reported, never thrown. */
export function compileGrants(grants: readonly unknown[]): { rules: CompiledRule[]; issues: PolicyIssue[] } {
  const issues: PolicyIssue[] = [];
  const rules: CompiledRule[] = [];
  grants.forEach((grant, index) => {
    const parsed = RuleSchema.safeParse(grant);
    if (!parsed.success) {
      issues.push(...PolicyValidationError.fromZod(parsed.error, ['grants', index]).issues);
      return;
    }
    if (parsed.data.action !== 'allow') return;
    const before = issues.length;
    const compiled = compileRule(parsed.data, index, issues, ['grants', index]);
    if (issues.length === before) rules.push(compiled);
  });
  return { rules, issues };
}

function buildIndex(policy: Policy, rules: CompiledRule[]): CompiledPolicy {
  const byTool = new Map<string, CompiledRule[]>();
  const globRules: CompiledRule[] = [];
  for (const rule of rules) {
    if (isLiteralGlob(rule.rule.tool)) {
      const list = byTool.get(rule.rule.tool) ?? [];
      list.push(rule);
      byTool.set(rule.rule.tool, list);
    } else {
      globRules.push(rule);
    }
  }
  const cache = new Lru<string, RulesByAction>(4096);
  return {
    [COMPILED]: true,
    policy,
    rules,
    candidates(tool: string): RulesByAction {
      const hit = cache.get(tool);
      if (hit) return hit;
      const matching = [...(byTool.get(tool) ?? []), ...globRules.filter((r) => r.tool(tool))].sort(
        (a, b) => a.index - b.index,
      );
      const result: RulesByAction = { deny: [], ask: [], allow: [] };
      for (const rule of matching) result[rule.action].push(rule);
      cache.set(tool, result);
      return result;
    },
  };
}

function compileRule(rule: Rule, index: number, issues: PolicyIssue[], at: (string | number)[]): CompiledRule {
  const where = (...more: (string | number)[]) => [...at, ...more].join('.');
  const params = Object.entries(rule.params ?? {}).map(([key, pattern]) => {
    const compiled: CompiledPattern = { key, pattern, cache: new Map() };
    for (const kind of plausibleKinds(rule.tool, key)) {
      const matcher = kindMatcher(compiled, kind);
      if (matcher.kind === 'invalid') issues.push({ path: where('params', key), message: matcher.error });
    }
    return compiled;
  });
  const conditions = (rule.when ?? []).map((condition, i) =>
    compileCondition(rule.tool, condition, issues, where('when', i)),
  );
  return {
    index,
    rule,
    action: rule.action,
    tool: compileTextGlob(rule.tool),
    agent: rule.agent === undefined ? undefined : compileTextGlob(rule.agent),
    params,
    conditions,
  };
}

/** The kinds a param of a rule may be matched as, so errors surface when the policy is saved. */
function plausibleKinds(toolGlob: string, key: string): ParamKind[] {
  if (isLiteralGlob(toolGlob)) return [BUILTIN_PARAM_KINDS[toolGlob]?.[key] ?? 'text'];
  const kinds = new Set<ParamKind>(['text']);
  for (const [tool, params] of Object.entries(BUILTIN_PARAM_KINDS)) {
    const kind = params[key];
    if (kind && compileTextGlob(toolGlob)(tool)) kinds.add(kind);
  }
  return [...kinds];
}

function compileCondition(
  toolGlob: string,
  condition: Condition,
  issues: PolicyIssue[],
  path: string,
): CompiledCondition {
  const compiled: CompiledCondition = { key: condition.key, op: condition.op, value: condition.value };
  const fail = (message: string) => issues.push({ path: `${path}.value`, message });
  try {
    switch (condition.op) {
      case 'glob': {
        compiled.pattern = { key: condition.key, pattern: condition.value, cache: new Map() };
        for (const kind of plausibleKinds(toolGlob, condition.key)) {
          const matcher = kindMatcher(compiled.pattern, kind);
          if (matcher.kind === 'invalid') fail(matcher.error);
        }
        break;
      }
      case 'regex':
        compiled.regex = compileRegex(condition.value);
        break;
      case 'host':
        compiled.hosts = compileHostList(condition.value);
        compiled.hostWeight = splitList(condition.value).length;
        break;
      case 'command_blacklist':
      case 'command_ask_always': {
        const programs = splitList(condition.value);
        if (programs.length === 0) fail('list at least one program name, comma-separated');
        compiled.programs = new Set(programs);
        break;
      }
      case 'eq':
      case 'no_command_substitution':
        break;
    }
  } catch (error) {
    fail((error as Error).message);
  }
  return compiled;
}

/** The matcher of a pattern for one kind (and for paths one root), built once and cached. */
export function kindMatcher(pattern: CompiledPattern, kind: ParamKind, paths?: PathContext): KindMatcher {
  const key = kind === 'path' ? (paths?.key ?? 'path') : kind;
  const cached = pattern.cache.get(key);
  if (cached) return cached;
  let matcher: KindMatcher;
  try {
    switch (kind) {
      case 'text':
        matcher = { kind, matcher: compileTextGlobMatcher(pattern.pattern) };
        break;
      case 'path':
        matcher = {
          kind,
          matcher: compilePathPattern(pattern.pattern, paths ?? { root: '/', home: '/', key: 'path' }),
        };
        break;
      case 'url':
        matcher = { kind, matcher: compileUrlPattern(pattern.pattern) };
        break;
      case 'command':
        matcher = { kind, pattern: compileCommandPattern(pattern.pattern) };
        break;
    }
  } catch (error) {
    matcher = { kind: 'invalid', error: (error as Error).message };
  }
  if (pattern.cache.size > 64) pattern.cache.clear();
  pattern.cache.set(key, matcher);
  return matcher;
}
