// Public surface of the permission engine. Pure TypeScript, usable from any Node script:
//   const policy = compilePolicy({ rules: [{ action: 'allow', tool: 'bash', params: { command: 'git status' } }] });
//   evaluate(policy, { tool: 'bash', params: { command: 'git status && rm -rf /' } }) // -> ask
export { evaluate } from './evaluate';
export { compilePolicy, isCompiledPolicy, type CompiledPolicy } from './compile';
export { derivePermission } from './derive';
export {
  checkGrantRules,
  exactCallRules,
  grantCoverage,
  grantFitsCall,
  judgeGrant,
  type AlwaysAllowRequest,
  type Coverage,
  type GrantCheck,
  type GrantContext,
  type GrantIssue,
} from './grant-check';
export { importPolicy, detectFormat, type ImportOptions, type PolicyFormat } from './import';
export { importDraftPolicy } from './draft';
export { DRAFT_LIMITS, MAX_VALUE_LENGTH, POLICY_TEST_LIMITS, WORK_BUDGET } from './limits';
export { describeTestResult, runPolicyTests, testLabel } from './policy-tests';
export { consumeOnce } from './consume';
export { salvagePolicy, type SalvagedPolicy } from './salvage';
export { DEFAULT_POLICY } from './defaults';
export { PolicyValidationError, isPolicyValidationError, type PolicyIssue } from './errors';
export { BUILTIN_PARAM_KINDS, BUILTIN_RISKS, paramKindOf, riskOf } from './kinds';
export { describeRule } from './explain';
export {
  canonicalJson,
  diffPolicies,
  isBuiltinRule,
  isEmptyDiff,
  isSafetyDeny,
  type PolicyDiff,
  type RuleChange,
} from './diff';
export { parseCommand } from './shell/parse';
export type { ParsedCommand, ShellPart } from './shell/types';
export {
  PolicySchema,
  PolicyTestSchema,
  RuleSchema,
  ConditionSchema,
  ToolCallSchema,
  ActionSchema,
  ModeSchema,
  RiskSchema,
  ParamKindSchema,
  type Action,
  type AlwaysAllowVerdict,
  type Condition,
  type Decision,
  type DecisionReason,
  type EvaluationContext,
  type Mode,
  type ParamKind,
  type PartDecision,
  type Policy,
  type PolicyInput,
  type PolicyTest,
  type PolicyTestInput,
  type PolicyTestReport,
  type PolicyTestResult,
  type Risk,
  type Rule,
  type RuleInput,
  type RuleRef,
  type ToolCall,
} from './types';
export { alwaysAllowVerdict } from './grant-verdict';
export { approvalRequirement, approverRoles, DEFAULT_APPROVER_ROLES, type ApprovalRequirement } from './approvals';
