// Wiring Gatehouse into an AI SDK agent: every tool's `execute` first asks Gatehouse (the policy,
// and a person in the browser when it asks). A denial becomes the tool's result, so the model reads
// why; an approval runs the call with the parameters the person approved.
//
//   const decide = gatehouseDecide({ url: 'http://127.0.0.1:3000', token: process.env.GATEHOUSE_TOKEN!, agent: 'my-agent' });
//   const tools = { bash: gated('bash', bashTool, decide) };
//   await generateText({ model, tools, prompt });
import type { Decide } from './gatehouse-decide';

/** The part of an AI SDK tool this wraps (`tool({ description, inputSchema, execute })`). */
export interface ExecutableTool<Input extends Record<string, unknown>, Output> {
  execute?: (input: Input, options: { toolCallId: string }) => Promise<Output> | Output;
}

export function gated<T extends ExecutableTool<Input, Output>, Input extends Record<string, unknown>, Output>(
  name: string,
  tool: T & ExecutableTool<Input, Output>,
  decide: Decide,
): T & { execute: (input: Input, options: { toolCallId: string }) => Promise<Output | string> } {
  const execute = tool.execute;
  if (!execute) throw new TypeError(`Tool ${name} has no execute to gate`);
  return {
    ...tool,
    async execute(input: Input, options: { toolCallId: string }) {
      const answer = await decide({ tool: name, params: input, callId: options.toolCallId });
      if (answer.decision !== 'allow') return `Not run: ${answer.reason}`;
      return execute((answer.params ?? input) as Input, options);
    },
  };
}
