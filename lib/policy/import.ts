// Reading policies written elsewhere. Three shapes are accepted:
//  - the canonical Policy (`{ defaultAction?, riskDefaults?, rules: [{ action, tool, ... }] }`);
//  - the seeds' permissions (`{ allowlist, deny, allowOnce }`, entries `{ tool, params }`);
//  - the snake_case rules format (`{ default_action, rules: [{ tool, when, action: 'allow' |
//    'approve' | 'deny', timeout_s, on_timeout }] }`, where `approve` means ask);
//  - Claude Code's settings.json (`{ permissions: { allow, ask, deny, defaultMode,
//    additionalDirectories } }`, other keys ignored; claude-code/permissions.ts).
// Anything else throws PolicyValidationError naming the offending field.
import { z } from 'zod';
import { compilePolicy } from './compile';
import { fromClaudeCodeSettings, type ClaudeCodeImportOptions } from './claude-code/permissions';
import { PolicyValidationError } from './errors';
import { escapeTextGlob } from './glob';
import { ConditionSchema, type Policy, type Rule } from './types';

const SeedEntrySchema = z
  .object({
    tool: z.string().trim().min(1, 'tool must not be empty'),
    params: z.record(z.string(), z.unknown()).optional(),
    agent: z.string().min(1).optional(),
    description: z.string().optional(),
  })
  // A key the importer does not read (a misspelt `param`, a `when`) is named, never dropped: an
  // entry without it would allow the whole tool.
  .strict();

// Policy tests are carried as they are in every format (PolicySchema validates them, naming
// `tests.<i>`); only the snake_case format's tests may also say `approve` for ask.
const TestsField = z.array(z.unknown()).optional();

const SeedPermissionsSchema = z
  .object({
    allowlist: z.array(SeedEntrySchema).default([]),
    deny: z.array(SeedEntrySchema).default([]),
    allowOnce: z.array(SeedEntrySchema).default([]),
    tests: TestsField,
  })
  .strict();

const ForeignConditionSchema = z.union([
  ConditionSchema,
  z.object({ param: z.string().min(1), op: ConditionSchema.shape.op, value: z.string().default('') }).strict(),
]);

const SnakeRuleSchema = z
  .object({
    id: z.string().min(1).optional(),
    description: z.string().optional(),
    tool: z.string().trim().min(1, 'tool must not be empty'),
    agent: z.string().min(1).optional(),
    when: z.union([z.array(ForeignConditionSchema), ForeignConditionSchema]).optional(),
    params: z.record(z.string(), z.string()).optional(),
    action: z.enum(['allow', 'approve', 'ask', 'deny']),
    timeout_s: z.number().int().positive().optional(),
    on_timeout: z.literal('deny').optional(),
  })
  .strict();

const SnakePolicySchema = z
  .object({
    default_action: z.enum(['allow', 'approve', 'ask', 'deny']).optional(),
    rules: z.array(SnakeRuleSchema),
    tests: TestsField,
  })
  .strict();

export type PolicyFormat = 'canonical' | 'seed_permissions' | 'snake_rules' | 'claude_code_settings';

export function detectFormat(doc: unknown): PolicyFormat {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new PolicyValidationError([{ path: '', message: 'a policy document must be a JSON object' }]);
  }
  const keys = Object.keys(doc);
  const permissions = (doc as { permissions?: unknown }).permissions;
  if (
    keys.includes('permissions') &&
    typeof permissions === 'object' &&
    permissions !== null &&
    !Array.isArray(permissions)
  )
    return 'claude_code_settings';
  if (keys.some((k) => k === 'allowlist' || k === 'allowOnce') || (keys.includes('deny') && !keys.includes('rules')))
    return 'seed_permissions';
  if (keys.includes('default_action')) return 'snake_rules';
  const rules = (doc as { rules?: unknown }).rules;
  if (
    Array.isArray(rules) &&
    rules.some(
      (r) =>
        typeof r === 'object' &&
        r !== null &&
        ('timeout_s' in r || 'on_timeout' in r || (r as { action?: unknown }).action === 'approve'),
    )
  ) {
    return 'snake_rules';
  }
  return 'canonical';
}

export type ImportOptions = ClaudeCodeImportOptions;

/**
 * Reads a policy in any supported format and returns it validated and canonical. `agent` applies
 * to what a Claude Code settings document converts into (other formats name their own agents).
 */
export function importPolicy(doc: unknown, options: ImportOptions = {}): Policy {
  const format = detectFormat(doc);
  // Other formats name their rules' agents themselves: an agent asked for would be silently
  // ignored, leaving rules (allow rules too) for every agent.
  if (options.agent !== undefined && format !== 'claude_code_settings')
    throw new PolicyValidationError([
      { path: 'agent', message: "an agent applies only to Claude Code's settings; name each rule's agent instead" },
    ]);
  const policy =
    format === 'seed_permissions'
      ? fromSeed(doc)
      : format === 'snake_rules'
        ? fromSnake(doc)
        : format === 'claude_code_settings'
          ? fromClaudeCodeSettings(doc, options)
          : doc;
  return compilePolicy(policy as Policy).policy;
}

function fromSeed(doc: unknown): Policy {
  const parsed = SeedPermissionsSchema.safeParse(doc);
  if (!parsed.success) throw PolicyValidationError.fromZod(parsed.error, [], 'permissions');
  const rules: Rule[] = [];
  const add = (entries: z.infer<typeof SeedEntrySchema>[], action: 'allow' | 'deny', once: boolean) => {
    for (const entry of entries) {
      const rule: Rule = { action, tool: entry.tool };
      if (entry.agent) rule.agent = entry.agent;
      if (entry.description) rule.description = entry.description;
      if (entry.params && Object.keys(entry.params).length > 0) {
        rule.params = Object.fromEntries(
          Object.entries(entry.params).map(([k, v]) => [
            k,
            typeof v === 'string' ? v : escapeTextGlob(JSON.stringify(v)),
          ]),
        );
      }
      if (once) rule.once = true;
      rules.push(rule);
    }
  };
  add(parsed.data.deny, 'deny', false);
  add(parsed.data.allowlist, 'allow', false);
  add(parsed.data.allowOnce, 'allow', true);
  return { defaultAction: 'ask', rules, ...withTests(parsed.data.tests) };
}

function fromSnake(doc: unknown): Policy {
  const parsed = SnakePolicySchema.safeParse(doc);
  if (!parsed.success) throw PolicyValidationError.fromZod(parsed.error);
  const toAction = (a: 'allow' | 'approve' | 'ask' | 'deny') => (a === 'approve' ? 'ask' : a);
  const rules = parsed.data.rules.map((r): Rule => {
    const rule: Rule = { action: toAction(r.action), tool: r.tool };
    if (r.id) rule.id = r.id;
    if (r.description) rule.description = r.description;
    if (r.agent) rule.agent = r.agent;
    if (r.params) rule.params = r.params;
    if (r.when) {
      const list = Array.isArray(r.when) ? r.when : [r.when];
      rule.when = list.map((c) => ('param' in c ? { key: c.param, op: c.op, value: c.value } : c));
    }
    if (r.timeout_s) rule.timeoutS = r.timeout_s;
    if (r.on_timeout) rule.onTimeout = r.on_timeout;
    return rule;
  });
  const tests = parsed.data.tests?.map((t) =>
    typeof t === 'object' && t !== null && (t as { expect?: unknown }).expect === 'approve'
      ? { ...t, expect: 'ask' }
      : t,
  );
  return { defaultAction: toAction(parsed.data.default_action ?? 'ask'), rules, ...withTests(tests) };
}

/** Tests as given, for PolicySchema to validate (left out when the document has none). */
function withTests(tests: unknown[] | undefined): Pick<Policy, 'tests'> {
  return tests === undefined ? {} : { tests: tests as Policy['tests'] };
}
