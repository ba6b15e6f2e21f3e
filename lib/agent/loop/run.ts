// The gated loop of one agent (the main agent or a subagent): a model step, then every tool call
// of the step through the gate (call.ts), asks raised together and answered in any order, results
// back to the model in call order. Anything but an approval (deny, timeout, abort, handler error)
// is a denial: no tool runs that the policy or a human did not allow.
import type { ModelMessage } from 'ai';
import { guarded, handleCall, resumeCall } from './call';
import { emit, type AgentLevel, type ResumePoint, type RunContext } from './context';
import { toolMessage } from './results';
import { runModelStep } from './step';

export type { AgentLevel, ExecutionLog, PendingRelays, ResumePoint, RunContext } from './context';
export { emit };

export async function runAgentLevel(
  ctx: RunContext,
  level: AgentLevel,
  messages: ModelMessage[],
  resume?: ResumePoint,
): Promise<string> {
  let lastText = '';
  if (resume && resume.calls.length > 0) {
    const results = await Promise.all(
      resume.calls.map(
        (call) =>
          resume.results[call.toolCallId] ??
          guarded({ ctx, level, call }, () => resumeCall({ ctx, level, call }, resume.relays[call.toolCallId])),
      ),
    );
    messages.push(toolMessage(resume.calls, results));
    await ctx.checkpoint?.(messages);
  }
  for (let step = 0; step < ctx.maxSteps; step++) {
    const result = await runModelStep({
      model: ctx.model,
      system: level.system,
      messages,
      tools: level.tools,
      signal: ctx.signal,
      onText: (content) => emit(ctx, level, { type: 'text', content }),
    });
    messages.push(...result.responseMessages);
    if (level.agentId === 'main') await ctx.checkpoint?.(messages);
    if (result.text) lastText = result.text;
    if (result.toolCalls.length === 0) return lastText;
    const results = await Promise.all(
      result.toolCalls.map((call) => guarded({ ctx, level, call }, () => handleCall({ ctx, level, call }))),
    );
    messages.push(toolMessage(result.toolCalls, results));
    if (level.agentId === 'main') await ctx.checkpoint?.(messages);
  }
  throw new MaxStepsError(ctx.maxSteps);
}

export class MaxStepsError extends Error {
  constructor(readonly steps: number) {
    super(`The agent stopped after ${steps} steps`);
  }
}
