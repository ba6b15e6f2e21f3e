// What an "Always Allow" may store. A grant rule is acceptable for a call only if it is an allow
// rule for the call's own tool (named literally: no tool glob) and, judged by the engine with it
// as the only grant of an empty deny-all policy, allows the call (or, for a shell command, at
// least one of its parts). Deciders who may not edit rules are further held to the rules the
// engine suggested for the call, unchanged, or the exact call itself (`exactCallRules`). Pure.
import { compilePolicy, type CompiledPolicy } from './compile';
import { evaluate } from './evaluate';
import { escapeTextGlob, isLiteralGlob } from './glob';
import { paramKindOf } from './kinds';
import { escapePathGlob, pathContext, resolvePath } from './paths';
import { parseCommand } from './shell/parse';
import { quoteWord } from './shell/words';
import { normalizeUrl } from './urls';
import { RuleSchema, type Decision, type EvaluationContext, type Rule, type ToolCall } from './types';

/**
 * What the engine needs to judge a grant against a call: where paths resolve, the home `~/` means,
 * the folder a search reads below, the tool's param kinds and risk.
 */
export type GrantContext = Pick<EvaluationContext, 'workspaceRoot' | 'homeDir' | 'searchRoot' | 'paramKinds' | 'risk'>;

/** Nothing is allowed but by the grant under test. */
let denyAll: CompiledPolicy | undefined;

export type Coverage = 'all' | 'part' | 'none';

/**
 * The one check of "does this grant cover this call": the engine's decision on the call with
 * `rules` as the only grants, under `policy` (by default an empty deny-all one, which judges the
 * rules alone; the real policy also shows what a grant can never override, such as an ask rule).
 * Coverage: `all` of the call, a `part` of a shell command, or `none`.
 */
export function judgeGrant(
  rules: Rule | readonly Rule[],
  call: ToolCall,
  ctx: GrantContext = {},
  policy?: CompiledPolicy,
): { coverage: Coverage; decision: Decision } {
  const under = policy ?? (denyAll ??= compilePolicy({ defaultAction: 'deny', rules: [] }));
  const grants = Array.isArray(rules) ? rules : [rules as Rule];
  const decision = evaluate(under, call, {
    mode: 'default',
    grants,
    workspaceRoot: ctx.workspaceRoot,
    homeDir: ctx.homeDir,
    paramKinds: ctx.paramKinds,
    risk: ctx.risk,
  });
  const byGrant = (d: { action: string; grant?: unknown }) => d.action === 'allow' && d.grant !== undefined;
  if (decision.action === 'allow' && (byGrant(decision) || decision.parts?.some(byGrant)))
    return { coverage: 'all', decision };
  return { coverage: decision.parts?.some(byGrant) ? 'part' : 'none', decision };
}

/** How much of the call `rule`, as the only grant of a deny-all policy, allows (judgeGrant). */
export function grantCoverage(rule: Rule, call: ToolCall, ctx: GrantContext = {}): Coverage {
  return judgeGrant(rule, call, ctx).coverage;
}

/** True when the rule could be stored as a grant for this call at all: see the module comment. */
export function grantFitsCall(rule: Rule, call: ToolCall, ctx: GrantContext = {}): boolean {
  return (
    rule.action === 'allow' &&
    rule.tool === call.tool &&
    isLiteralGlob(rule.tool) &&
    grantCoverage(rule, call, ctx) !== 'none'
  );
}

/**
 * The rules that pin exactly this call: for a shell command one per part, its words quoted as
 * written; otherwise one rule with every param's value escaped (paths resolved, URLs normalized).
 * Empty when a value cannot be pinned (a URL containing `*`, which URL patterns cannot escape).
 */
export function exactCallRules(call: ToolCall, ctx: GrantContext = {}): Rule[] {
  const base = {
    action: 'allow' as const,
    tool: call.tool,
    ...(call.agent ? { agent: escapeTextGlob(call.agent) } : {}),
  };
  const keys = Object.keys(call.params ?? {});
  const kindOf = (key: string) => paramKindOf(call.tool, key, ctx.paramKinds);
  const commandKey = keys.find((key) => kindOf(key) === 'command');
  const pinned: Record<string, string> = {};
  for (const key of keys) {
    if (key === commandKey) continue;
    const value = call.params[key];
    const kind = kindOf(key);
    if (kind === 'path' && typeof value === 'string')
      pinned[key] = escapePathGlob(resolvePath(value, pathContext(ctx.workspaceRoot, ctx.homeDir)));
    else if (kind === 'url' && typeof value === 'string') {
      const href = normalizeUrl(value)?.href;
      if (!href || href.includes('*')) return [];
      pinned[key] = href;
    } else pinned[key] = escapeTextGlob(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  }
  if (commandKey === undefined)
    return [
      {
        ...base,
        ...(keys.length > 0 ? { params: pinned } : {}),
        description: `Always allow exactly this ${call.tool} call`,
      },
    ];
  const command = call.params[commandKey];
  if (typeof command !== 'string') return [];
  const texts = [
    ...new Set(
      parseCommand(command).parts.map((part) =>
        part.words.map((w) => (w.dynamic ? w.value : quoteWord(w.value))).join(' '),
      ),
    ),
  ];
  return texts.map((text) => ({
    ...base,
    params: { ...pinned, [commandKey]: text },
    description: `Always allow: ${text}`,
  }));
}

/** What a supplied rule is compared by: everything that decides what it matches (not its id or description). */
function matchingShape(rule: Rule): string {
  const sorted = (record: Record<string, string> | undefined) =>
    record && Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify([
    rule.action,
    rule.tool,
    rule.agent ?? null,
    sorted(rule.params) ?? null,
    rule.when ?? null,
    rule.once ?? false,
    rule.timeoutS ?? null,
    rule.onTimeout ?? null,
  ]);
}

export interface AlwaysAllowRequest {
  call: ToolCall;
  /** The rules the engine suggested for the call (stored with its relay). */
  suggested: readonly Rule[];
  /** The decider may edit rules (an admin): any allow rule for the tool that covers the call. */
  mayEdit: boolean;
}

export interface GrantIssue {
  /** Which of the supplied rules. */
  index: number;
  /** Where in that rule: `action`, `tool`, `params`, or '' for the rule as a whole. */
  path: string;
  message: string;
}

export type GrantCheck = { ok: true; rules: Rule[] } | { ok: false; issues: GrantIssue[] };

/**
 * Judges the rules a decider supplied with Always Allow. On success, the rules to store: for a
 * decider who may not edit, the engine's own copy of each (suggested or exact), so nothing the
 * client added (an id, a description) is kept.
 */
export function checkGrantRules(
  supplied: readonly unknown[],
  request: AlwaysAllowRequest,
  ctx: GrantContext = {},
): GrantCheck {
  const { call } = request;
  const known = new Map<string, Rule>();
  if (!request.mayEdit) {
    for (const rule of [...exactCallRules(call, ctx), ...request.suggested]) known.set(matchingShape(rule), rule);
  }
  const issues: GrantIssue[] = [];
  const rules: Rule[] = [];
  supplied.forEach((raw, index) => {
    const parsed = RuleSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      issues.push({ index, path: issue.path.map(String).join('.'), message: issue.message });
      return;
    }
    const rule = parsed.data;
    const refuse = (path: string, message: string) => void issues.push({ index, path, message });
    if (rule.action !== 'allow') return refuse('action', 'an Always Allow rule must be an allow rule');
    if (!isLiteralGlob(rule.tool))
      return refuse('tool', `a tool glob is not allowed: name the tool of this call, "${call.tool}"`);
    if (rule.tool !== call.tool) return refuse('tool', `must be "${call.tool}", the tool of this call`);
    let stored = rule;
    if (!request.mayEdit) {
      const match = known.get(matchingShape(rule));
      if (!match)
        return refuse(
          '',
          `must be one of the rules suggested for this call, unchanged, or the exact call (${describeChoices(known)}); only an admin may edit them`,
        );
      stored = match;
    }
    if (grantCoverage(stored, call, ctx) === 'none')
      return refuse('params', 'does not cover this call: the engine would not allow it with this rule');
    rules.push(stored);
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, rules };
}

function describeChoices(known: Map<string, Rule>): string {
  const shown = [...new Set([...known.values()].map((rule) => JSON.stringify(rule.params ?? {})))].map((text) =>
    text.length > 200 ? `${text.slice(0, 200)}…` : text,
  );
  return shown.length === 0 ? 'none here' : shown.slice(0, 10).join(' or ');
}
