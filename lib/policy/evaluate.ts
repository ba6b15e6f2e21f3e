// The decision. For each unit of a call (each simple command of a shell command, or the call
// itself): deny rules, then ask rules, then allow rules, then grants, then the tool's risk
// default, then the policy default, so precedence is deny > ask > allow whatever the rule order.
// A shell command is denied if any part is denied, asks if any part asks, and is allowed only
// if every part is. Modes adjust the result last. Evaluating never throws, and spends at most
// WORK_BUDGET steps matching: a part still undecided when the budget runs out asks.
import { commandRuleBlock } from './allow-block';
import { unitRules, type UnitRules } from './candidates';
import { followPlans, followRules, type Plan } from './follow';
import { compileGrants, compilePolicy, isCompiledPolicy, type CompiledPolicy, type CompiledRule } from './compile';
import { PolicyValidationError } from './errors';
import * as explain from './explain';
import { applyCallModes, applyUnitModes, type UnitDecision } from './evaluate-modes';
import { paramKindOf, riskOf } from './kinds';
import { MAX_NAME_LENGTH, WORK_BUDGET, WorkBudget } from './limits';
import { ruleMatches, rulesFit, unitOf, type PreparedCall, type Unit } from './match';
import { pathContext, resolvePath } from './paths';
import { parseCommand } from './shell/parse';
import type { ShellPart } from './shell/types';
import type {
  Action,
  Decision,
  EvaluationContext,
  PartDecision,
  ParamKind,
  Policy,
  PolicyInput,
  Risk,
  RuleRef,
} from './types';

const EMPTY_PART: ShellPart = {
  words: [],
  views: [[]],
  text: '',
  program: '',
  writesFile: false,
  openArgs: false,
  shellFromStdin: false,
};

const SEVERITY: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };
const MAY_ACTIONS = ['deny', 'ask'] as const;

/** A part the work budget ran out on: like a part that cannot be inspected, it asks and is never allowed. */
const OVER_BUDGET: UnitDecision = {
  action: 'ask',
  reason: 'unparseable',
  explanation: explain.overBudget(WORK_BUDGET),
};

const compiledCache = new WeakMap<object, CompiledPolicy | PolicyValidationError>();
const grantCache = new WeakMap<object, CompiledRule[]>();

export function evaluate(
  policy: Policy | PolicyInput | CompiledPolicy,
  call: unknown,
  ctx: EvaluationContext = {},
): Decision {
  return evaluateWith(policy, call, ctx, new WorkBudget());
}

/** evaluate, and the matching steps it spent (for the tests of the bound and for calibration). */
export function evaluateMetered(
  policy: Policy | PolicyInput | CompiledPolicy,
  call: unknown,
  ctx: EvaluationContext = {},
): { decision: Decision; steps: number } {
  const work = new WorkBudget();
  const decision = evaluateWith(policy, call, ctx, work);
  return { decision, steps: work.spent };
}

function evaluateWith(
  policy: Policy | PolicyInput | CompiledPolicy,
  call: unknown,
  ctx: EvaluationContext,
  work: WorkBudget,
): Decision {
  const mode = ctx?.mode ?? 'default';
  try {
    const shape = checkCall(call);
    if (typeof shape === 'string')
      return { action: 'deny', reason: 'unparseable', explanation: `Denied: the call is malformed (${shape}).` };
    const compiled = compiledOf(policy);
    if (compiled instanceof PolicyValidationError) {
      return applyCallModes(
        {
          action: 'ask',
          reason: 'default_action',
          explanation: `Needs approval: the policy cannot be used (${compiled.message}).`,
        },
        mode,
        riskOf(shape.tool, ctx.risk),
        shape.tool,
      );
    }
    return decide(compiled, shape, ctx, work);
  } catch (error) {
    const action: Action = mode === 'dontAsk' || mode === 'plan' ? 'deny' : 'ask';
    return {
      action,
      reason: 'default_action',
      explanation: `${action === 'deny' ? 'Denied' : 'Needs approval'}: the call could not be evaluated (${(error as Error)?.message ?? String(error)}).`,
    };
  }
}

interface CallShape {
  tool: string;
  params: Record<string, unknown>;
  agent?: string;
}

function checkCall(call: unknown): CallShape | string {
  if (typeof call !== 'object' || call === null) return 'a call must be an object';
  const { tool, params, agent } = call as Record<string, unknown>;
  if (typeof tool !== 'string' || tool.trim() === '') return 'tool must be a non-empty string';
  if (tool.length > MAX_NAME_LENGTH) return `tool must be at most ${MAX_NAME_LENGTH} characters`;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return 'params must be an object';
  if (agent !== undefined && typeof agent !== 'string') return 'agent must be a string';
  if (typeof agent === 'string' && agent.length > MAX_NAME_LENGTH)
    return `agent must be at most ${MAX_NAME_LENGTH} characters`;
  return { tool, params: (params ?? {}) as Record<string, unknown>, agent: agent === '' ? undefined : agent };
}

function compiledOf(policy: Policy | PolicyInput | CompiledPolicy): CompiledPolicy | PolicyValidationError {
  if (isCompiledPolicy(policy)) return policy;
  if (typeof policy !== 'object' || policy === null)
    return new PolicyValidationError([{ path: '', message: 'a policy must be an object' }]);
  const hit = compiledCache.get(policy);
  if (hit) return hit;
  let result: CompiledPolicy | PolicyValidationError;
  try {
    result = compilePolicy(policy);
  } catch (error) {
    result =
      error instanceof PolicyValidationError
        ? error
        : new PolicyValidationError([{ path: '', message: String(error) }]);
  }
  compiledCache.set(policy, result);
  return result;
}

function grantsOf(grants: EvaluationContext['grants']): CompiledRule[] {
  if (!grants || grants.length === 0) return [];
  const hit = grantCache.get(grants);
  if (hit) return hit;
  const { rules } = compileGrants(grants);
  grantCache.set(grants, rules);
  return rules;
}

function decide(compiled: CompiledPolicy, call: CallShape, ctx: EvaluationContext, work: WorkBudget): Decision {
  const mode = ctx.mode ?? 'default';
  const risk = riskOf(call.tool, ctx.risk);
  const kinds = new Map<string, ParamKind>();
  const kindOf = (param: string): ParamKind => {
    let kind = kinds.get(param);
    if (!kind) kinds.set(param, (kind = paramKindOf(call.tool, param, ctx.paramKinds)));
    return kind;
  };
  const commandParam = Object.keys(call.params).find((key) => kindOf(key) === 'command');
  const paths = pathContext(ctx.workspaceRoot, ctx.homeDir);
  const start = typeof ctx.cwd === 'string' && ctx.cwd !== '' ? resolvePath(ctx.cwd, paths) : paths.root;
  const prep: PreparedCall = { call, agent: call.agent ?? 'main', kindOf, paths, commandParam, work, start };
  if (ctx.searchRoot !== undefined && kindOf(ctx.searchRoot) === 'path') prep.searchRoot = ctx.searchRoot;
  const units = unitsOf(prep);
  const candidates = compiled.candidates(call.tool);
  const grants = grantsOf(ctx.grants).filter((g) => g.tool(call.tool));
  const follow = followPlans(compiled);
  const decisions = units.map((unit) => {
    const base = decideUnit(unit, prep, unitRules(candidates, prep, unit), grants, compiled.policy, follow, risk);
    return applyUnitModes(base, unit, prep, mode);
  });
  const combined = combine(units, decisions);
  return applyCallModes(combined, mode, risk, call.tool);
}

function unitsOf(prep: PreparedCall): Unit[] {
  if (!prep.commandParam) return [{}];
  const value = prep.call.params[prep.commandParam];
  if (typeof value !== 'string') return [{ opaque: `${prep.commandParam} is not a string` }];
  const parsed = parseCommand(value);
  // Nothing to run (`""`, a comment, `x=1`, `[[ -f a ]]`): one empty part, which command patterns
  // other than a lone `*` never match, so deny rules do not fire on it and allow rules barely do.
  if (parsed.parts.length === 0) return [unitOf(EMPTY_PART)];
  return parsed.parts.map(unitOf);
}

/** The rule's explanation, made once per compiled rule: it is the same every time the rule decides. */
function explained(rule: CompiledRule): string {
  return (rule.explanation ??= explain.byRule(rule.action, rule.index, rule.rule));
}

function ref(rule: CompiledRule): RuleRef {
  return rule.rule.id === undefined
    ? { index: rule.index, action: rule.action }
    : { index: rule.index, id: rule.rule.id, action: rule.action };
}

function decideUnit(
  unit: Unit,
  prep: PreparedCall,
  candidates: UnitRules,
  grants: CompiledRule[],
  policy: Policy,
  follow: Record<'deny' | 'ask', Plan>,
  risk: Risk | undefined,
): UnitDecision {
  const work = prep.work;
  if (!rulesFit(prep, candidates.deny.length + candidates.ask.length)) return OVER_BUDGET;
  for (const action of MAY_ACTIONS) {
    for (const rule of candidates[action]) {
      const hit = ruleMatches(rule, prep, unit, 'may');
      if (work.exhausted) return OVER_BUDGET;
      if (hit) return { action, reason: 'matched_rule', rule: ref(rule), explanation: explained(rule) };
    }
    // The file and host rules the part's files and URLs fall under (follow.ts).
    const followed = followRules(follow[action], prep, unit);
    if (work.exhausted) return OVER_BUDGET;
    if (followed)
      return {
        action,
        reason: 'matched_rule',
        rule: ref(followed.rule),
        explanation: explain.byFollowedRule(
          action,
          followed.rule.index,
          followed.rule.rule,
          unit.part?.program ?? '',
          followed.what,
        ),
      };
  }
  let blocked: string | undefined;
  if (!unit.opaque) {
    if (!rulesFit(prep, candidates.allow.length + grants.length)) return OVER_BUDGET;
    for (const rule of candidates.allow) {
      const hit = ruleMatches(rule, prep, unit, 'must');
      if (work.exhausted) return OVER_BUDGET;
      if (!hit) continue;
      const why = commandRuleBlock(rule, prep, unit);
      if (why) {
        blocked ??= why;
        continue;
      }
      return {
        action: 'allow',
        reason: 'matched_rule',
        rule: ref(rule),
        explanation: explained(rule),
        onceRule: rule.rule.once ? rule.index : undefined,
      };
    }
    for (const grant of grants) {
      const hit = ruleMatches(grant, prep, unit, 'must');
      if (work.exhausted) return OVER_BUDGET;
      if (!hit) continue;
      const why = commandRuleBlock(grant, prep, unit);
      if (why) {
        blocked ??= why;
        continue;
      }
      return {
        action: 'allow',
        reason: 'session_grant',
        grant: ref(grant),
        explanation: explain.byGrant(grant.rule),
        onceGrant: grant.rule.once ? grant.index : undefined,
      };
    }
  }
  const fallback = fallbackDecision(policy, risk);
  if (blocked && fallback.action === 'allow') return fallback;
  if (blocked && fallback.action === 'ask') return { ...fallback, explanation: blocked };
  return fallback;
}

function fallbackDecision(policy: Policy, risk: Risk | undefined): UnitDecision {
  const byRisk = risk ? policy.riskDefaults?.[risk] : undefined;
  if (byRisk) return { action: byRisk, reason: 'risk_default', explanation: explain.byRiskDefault(byRisk, risk!) };
  return {
    action: policy.defaultAction,
    reason: 'default_action',
    explanation: explain.byDefaultAction(policy.defaultAction),
  };
}

function combine(units: Unit[], decisions: UnitDecision[]): Decision {
  let worst = 0;
  for (let i = 1; i < decisions.length; i++) {
    if (SEVERITY[decisions[i]!.action] > SEVERITY[decisions[worst]!.action]) worst = i;
  }
  const deciding = decisions[worst]!;
  const decision: Decision = { action: deciding.action, reason: deciding.reason, explanation: deciding.explanation };
  if (deciding.rule) decision.rule = deciding.rule;
  if (deciding.grant) decision.grant = deciding.grant;
  const hasParts = units.some((u) => u.part);
  if (hasParts) {
    decision.parts = units.map((unit, i): PartDecision => {
      const d = decisions[i]!;
      const part: PartDecision = {
        command: unit.part?.text ?? '',
        program: unit.part?.program ?? '',
        action: d.action,
        reason: d.reason,
        explanation: d.explanation,
      };
      if (d.rule) part.rule = d.rule;
      if (d.grant) part.grant = d.grant;
      return part;
    });
    if (units.length > 1) {
      decision.explanation =
        deciding.action === 'allow'
          ? `Allowed: all ${units.length} parts of the command are allowed.`
          : explain.inPart(units[worst]!.part?.text ?? '', deciding.explanation);
    }
  }
  if (decision.action === 'allow') {
    const rules = unique(decisions.map((d) => d.onceRule));
    const grants = unique(decisions.map((d) => d.onceGrant));
    if (rules.length > 0 || grants.length > 0) decision.consumes = { rules, grants };
  }
  return decision;
}

function unique(values: (number | undefined)[]): number[] {
  return [...new Set(values.filter((v): v is number => v !== undefined))];
}
