// Subagents: the `task` tool runs a named agent profile (its own system prompt, tool subset,
// rule overlay and mode) inside the same run, so its relays surface in the parent's event stream
// with its agentId and the chain of parents, and rules with an `agent` glob apply to it. Its policy,
// like the main agent's, is the agent's policy of the moment with the run's rules and its own after.
import { z } from 'zod';
import { compilePolicy, type CompiledPolicy, type Mode, type Rule } from '../policy';
import { perPolicy } from './loop/context';
import { emit, runAgentLevel, type AgentLevel, type RunContext } from './loop/run';
import { ToolError, type ToolDefinition } from './tools/types';

export interface AgentProfile {
  name: string;
  description?: string;
  /** The subagent's system prompt. */
  system?: string;
  /** Names of the tools it may use (default: the parent's tools, without `task`). */
  tools?: string[];
  /** Rules added to the policy for this subagent's calls. */
  rules?: Rule[];
  mode?: Mode;
}

const TaskInput = z.object({
  agent: z.string().min(1).describe('Name of the agent profile to run'),
  prompt: z.string().min(1).describe('What the subagent should do'),
});

const MAX_DEPTH = 4;

/**
 * `runPolicyOn`: the run's policy on an agent policy (the main level's `policyOn`); each profile's
 * rules come after it. `profilePolicies` is shared by nested task tools, so each profile's policy is
 * compiled once per agent policy.
 */
export function createTaskTool(
  ctx: RunContext,
  parent: AgentLevel,
  runPolicyOn: (agentPolicy: CompiledPolicy) => CompiledPolicy,
  profiles: Record<string, AgentProfile>,
  profilePolicies = new Map<string, (agentPolicy: CompiledPolicy) => CompiledPolicy>(),
): ToolDefinition<z.infer<typeof TaskInput>> {
  const names = Object.keys(profiles);
  const policyOf = (profile: AgentProfile) => {
    let policyOn = profilePolicies.get(profile.name);
    if (!policyOn) {
      const own = profile.rules ?? [];
      policyOn =
        own.length === 0
          ? runPolicyOn
          : perPolicy((agentPolicy) => {
              const base = runPolicyOn(agentPolicy).policy;
              return compilePolicy({ ...base, rules: [...base.rules, ...own] });
            });
      profilePolicies.set(profile.name, policyOn);
    }
    return policyOn;
  };
  return {
    name: 'task',
    description: `Run a subagent. Available agents: ${names.map((n) => `${n}${profiles[n]!.description ? ` (${profiles[n]!.description})` : ''}`).join(', ')}.`,
    inputSchema: TaskInput,
    risk: 'read_only',
    async execute({ agent, prompt }) {
      const profile = profiles[agent];
      if (!profile)
        throw new ToolError('invalid_input', `No agent named "${agent}". Available: ${names.join(', ') || 'none'}.`);
      const parents = [...parent.parents, parent.agentId];
      if (parents.length > MAX_DEPTH) throw new ToolError('refused', `Subagents nest at most ${MAX_DEPTH} deep.`);
      const allowed = profile.tools ? new Set(profile.tools) : undefined;
      const level: AgentLevel = {
        agentId: profile.name,
        parents,
        system: profile.system,
        tools: parent.tools.filter((t) => (allowed ? allowed.has(t.name) : t.name !== 'task')),
        policyOn: policyOf(profile),
        mode: profile.mode,
      };
      if (allowed?.has('task'))
        level.tools = [
          ...level.tools.filter((t) => t.name !== 'task'),
          createTaskTool(ctx, level, runPolicyOn, profiles, profilePolicies),
        ];
      emit(ctx, level, { type: 'agent_start', profile: profile.name, prompt });
      const output = await runAgentLevel(ctx, level, [{ role: 'user', content: prompt }]);
      emit(ctx, level, { type: 'agent_end', profile: profile.name, output });
      return { output: output || `(${profile.name} finished without a reply)` };
    },
  };
}
