// How a relay gets its answer when the library user does not answer `relay` events by hand:
// approve everything, deny everything, or a callback. Also the seeds' per-tool settings
// (`interruptOn`, a tool's `approval` flag) expressed as policy rules, and the prompt template.
import type { Rule } from '../policy';
import type { RelayRequest, RelayResponse } from '../relay';

export type ApprovalHandler =
  'auto-approve' | 'auto-deny' | ((relay: RelayRequest) => RelayResponse | Promise<RelayResponse>);

/** The seeds' `interruptOn`: `true` always asks, `false` never asks, `shouldApprove(args)` decides per call. */
export type InterruptOn = Record<string, boolean | { shouldApprove(args: Record<string, unknown>): boolean }>;

/** A tool's own approval flag: `required` asks for every call, `disabled` never asks. */
export type ToolApproval = 'required' | 'disabled';

export const DEFAULT_PROMPT_TEMPLATE = "Run '{toolName}' with arguments {args}?";

export function renderPrompt(template: string, toolName: string, args: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(args);
  } catch {
    json = String(args);
  }
  return template.replaceAll('{toolName}', toolName).replaceAll('{args}', json);
}

/** Static settings become rules, so precedence stays the engine's: a deny rule still denies. */
export function approvalRules(
  interruptOn: InterruptOn = {},
  toolApprovals: Record<string, ToolApproval | undefined> = {},
): Rule[] {
  const rules: Rule[] = [];
  const add = (tool: string, ask: boolean, source: string) =>
    rules.push({
      id: `${source}:${tool}`,
      action: ask ? 'ask' : 'allow',
      tool,
      description: `${source} ${ask ? 'requires approval' : 'needs no approval'} for ${tool}`,
    });
  for (const [tool, approval] of Object.entries(toolApprovals))
    if (approval) add(tool, approval === 'required', 'tool approval');
  for (const [tool, setting] of Object.entries(interruptOn))
    if (typeof setting === 'boolean') add(tool, setting, 'interruptOn');
  return rules;
}

export function dynamicInterrupt(
  interruptOn: InterruptOn | undefined,
  tool: string,
): ((args: Record<string, unknown>) => boolean) | undefined {
  const setting = interruptOn?.[tool];
  return setting && typeof setting === 'object' ? (args) => setting.shouldApprove(args) : undefined;
}
