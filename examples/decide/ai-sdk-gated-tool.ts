// Wiring Gatehouse into an AI SDK agent: every tool's `execute` first asks Gatehouse (the policy,
// and a person in the browser when it asks). A denial becomes the tool's result, so the model reads
// why; an approval runs the call with the parameters the person approved.
//
//   const decide = gatehouseDecide({ url: 'http://127.0.0.1:3000', token: process.env.GATEHOUSE_TOKEN!, agent: 'my-agent' });
//   const tools = { bash: gated('bash', bashTool, decide) };
//   await generateText({ model, tools, prompt });
import type { Decide } from './gatehouse-decide';

type AnyExecute = (input: Record<string, unknown>, options: { toolCallId: string }) => unknown;

/**
 * The tool with its `execute` behind the gate. A refused call resolves to the text
 * `Not run: <reason>` (the model reads it as the tool's result); the tool itself never runs.
 */
export function gated<T extends { execute?: (input: never, options: never) => unknown }>(
  name: string,
  tool: T,
  decide: Decide,
): T {
  const execute = tool.execute as AnyExecute | undefined;
  if (!execute) throw new TypeError(`Tool ${name} has no execute to gate`);
  const guarded: AnyExecute = async (input, options) => {
    const answer = await decide({ tool: name, params: input, callId: options.toolCallId });
    if (answer.decision !== 'allow') return `Not run: ${answer.reason}`;
    return execute(answer.params ?? input, options);
  };
  return { ...tool, execute: guarded };
}
