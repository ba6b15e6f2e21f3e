// The permission engine's data model: zod schemas for everything that crosses its boundary,
// and the plain types of what it returns. Pure: no I/O, no other project layer.
import { z } from 'zod';
import { jsonSize, MAX_JSON_DEPTH } from './json-size';
import { POLICY_TEST_LIMITS } from './limits';

export const ActionSchema = z.enum(['allow', 'ask', 'deny']);
export type Action = z.infer<typeof ActionSchema>;

export const RiskSchema = z.enum(['read_only', 'write', 'destructive']);
export type Risk = z.infer<typeof RiskSchema>;

export const ParamKindSchema = z.enum(['command', 'path', 'url', 'text']);
export type ParamKind = z.infer<typeof ParamKindSchema>;

export const ModeSchema = z.enum(['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions']);
export type Mode = z.infer<typeof ModeSchema>;

export const ConditionOpSchema = z.enum([
  'eq',
  'glob',
  'regex',
  'host',
  'command_blacklist',
  'command_ask_always',
  'no_command_substitution',
]);
export type ConditionOp = z.infer<typeof ConditionOpSchema>;

const nonEmpty = (what: string) => z.string().trim().min(1, `${what} must not be empty`);

export const ConditionSchema = z
  .object({
    key: nonEmpty('key'),
    op: ConditionOpSchema,
    value: z.string().default(''),
  })
  .strict();
export type Condition = z.infer<typeof ConditionSchema>;

/** The most approvals a rule may require. */
export const MAX_APPROVALS = 5;

export const RuleSchema = z
  .object({
    id: z.string().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    action: ActionSchema,
    /** Glob over the tool name (`*` matches any characters). */
    tool: nonEmpty('tool'),
    /** Glob over the agent name; calls without an agent are from the agent named `main`. */
    agent: nonEmpty('agent').optional(),
    /** Param name -> pattern, interpreted by the param's kind. All must match. */
    params: z.record(z.string().min(1), z.string()).optional(),
    /** Every condition must hold. */
    when: z.array(ConditionSchema).optional(),
    timeoutS: z
      .number()
      .int()
      .positive()
      .max(7 * 24 * 3600)
      .optional(),
    onTimeout: z.literal('deny').optional(),
    /**
     * Ask rules only: how many distinct people must approve, and with which roles (names checked by
     * the server against its roles; default approver or admin). A single denial denies.
     */
    approvals: z
      .object({
        count: z.number().int().min(1).max(MAX_APPROVALS),
        roles: z.array(z.string().min(1).max(50)).min(1).max(10).optional(),
      })
      .strict()
      .optional(),
    /** Only meaningful for allow rules and grants: consumed by the caller the first time it decides a call. */
    once: z.boolean().optional(),
  })
  .strict()
  .refine((rule) => rule.approvals === undefined || rule.action === 'ask', {
    message: 'only an ask rule may require approvals',
    path: ['approvals'],
  });
export type Rule = z.infer<typeof RuleSchema>;
export type RuleInput = z.input<typeof RuleSchema>;

export const RiskDefaultsSchema = z
  .object({
    read_only: ActionSchema.optional(),
    write: ActionSchema.optional(),
    destructive: ActionSchema.optional(),
  })
  .strict();
export type RiskDefaults = z.infer<typeof RiskDefaultsSchema>;

export const ToolCallSchema = z.object({
  tool: nonEmpty('tool'),
  params: z.record(z.string(), z.unknown()),
  agent: z.string().min(1).optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * An example a policy carries: this call (its agent is the call's), in this mode, must get this
 * decision. Bounded (POLICY_TEST_LIMITS) so running every test of a policy stays cheap.
 */
export const PolicyTestSchema = z
  .object({
    name: z.string().trim().min(1, 'name must not be empty').max(POLICY_TEST_LIMITS.nameLength).optional(),
    call: ToolCallSchema.superRefine((call, ctx) => {
      if (jsonSize(call, POLICY_TEST_LIMITS.callSize) > POLICY_TEST_LIMITS.callSize) {
        ctx.addIssue({
          code: 'custom',
          message: `a test's call may be at most ${POLICY_TEST_LIMITS.callSize.toLocaleString('en-US')} characters as JSON, nested at most ${MAX_JSON_DEPTH} deep`,
        });
      }
    }),
    expect: ActionSchema,
    mode: ModeSchema.optional(),
  })
  .strict();
export type PolicyTest = z.infer<typeof PolicyTestSchema>;
export type PolicyTestInput = z.input<typeof PolicyTestSchema>;

export const PolicySchema = z
  .object({
    defaultAction: ActionSchema.default('ask'),
    riskDefaults: RiskDefaultsSchema.optional(),
    rules: z.array(RuleSchema).max(100_000).default([]),
    /** Examples the policy must decide as stated; a save whose tests fail is refused. */
    tests: z
      .array(PolicyTestSchema)
      .max(POLICY_TEST_LIMITS.tests, `a policy may carry at most ${POLICY_TEST_LIMITS.tests} tests`)
      .superRefine((tests, ctx) => {
        if (tests.length > POLICY_TEST_LIMITS.tests) return;
        const total = tests.reduce((n, t) => n + jsonSize(t.call, POLICY_TEST_LIMITS.callSize), 0);
        if (total > POLICY_TEST_LIMITS.totalCallSize) {
          ctx.addIssue({
            code: 'custom',
            message: `the calls of a policy's tests may total at most ${POLICY_TEST_LIMITS.totalCallSize.toLocaleString('en-US')} characters as JSON (these total ${total.toLocaleString('en-US')})`,
          });
        }
      })
      .optional(),
  })
  .strict();
export type Policy = z.infer<typeof PolicySchema>;
export type PolicyInput = z.input<typeof PolicySchema>;

export interface EvaluationContext {
  mode?: Mode;
  /** "Always allow" and allow-once grants of the session; only allow grants are used. */
  grants?: readonly (Rule | RuleInput)[];
  /** Risk of the tool; defaults to the built-in tools' risks. */
  risk?: Risk;
  /** Param kinds of the tool, on top of the built-in ones. */
  paramKinds?: Record<string, ParamKind>;
  /** Root that relative paths resolve against (default: process.cwd()). */
  workspaceRoot?: string;
  /** Home directory that `~` expands to (default: os.homedir()). */
  homeDir?: string;
  /**
   * Directory a shell command starts in, for the relative paths file rules see in it (an agent
   * hook's `cwd`); relative to workspaceRoot when relative. Default: workspaceRoot.
   */
  cwd?: string;
  /**
   * The path param that names a directory the tool reads with everything below it (a hook's
   * Grep or Glob): deny and ask rules then match any path beneath it, as for `grep -r`.
   */
  searchRoot?: string;
}

export type DecisionReason =
  'matched_rule' | 'session_grant' | 'risk_default' | 'default_action' | 'mode' | 'unparseable';

export interface RuleRef {
  index: number;
  id?: string;
  action: Action;
}

/** Whether the rules Always Allow would add cover the very call they are for (grant-verdict.ts). */
export interface AlwaysAllowVerdict {
  /** The grant would allow this call: the same call would not ask again. */
  covers: boolean;
  /** Why it would not (absent when it covers). */
  reason?: string;
  /** The policy rule that decides the call whatever is granted (an ask rule). */
  rule?: RuleRef;
}

/** The decision for one simple command of a shell script. */
export interface PartDecision {
  /** The command as matched: wrappers removed, quotes resolved. */
  command: string;
  program: string;
  action: Action;
  reason: DecisionReason;
  rule?: RuleRef;
  grant?: RuleRef;
  explanation: string;
}

export interface Decision {
  action: Action;
  reason: DecisionReason;
  /** The policy rule that decided, if one did. */
  rule?: RuleRef;
  /** The grant that allowed, if one did. */
  grant?: RuleRef;
  explanation: string;
  /** Per simple command, for shell commands. */
  parts?: PartDecision[];
  /** Allow-once entries this decision used: the caller consumes them when it acts on the decision. */
  consumes?: { rules: number[]; grants: number[] };
}

/** What one policy test got: the decision of its call, and whether that is what it expected. */
export interface PolicyTestResult {
  /** Position in the policy's `tests`. */
  index: number;
  name?: string;
  call: ToolCall;
  mode: Mode;
  expect: Action;
  got: Action;
  pass: boolean;
  reason: DecisionReason;
  rule?: RuleRef;
  explanation: string;
}

export interface PolicyTestReport {
  results: PolicyTestResult[];
  passed: number;
  failed: number;
}
