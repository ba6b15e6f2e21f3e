// A scripted stand-in for the OpenAI Responses API, so the real Codex CLI runs offline (a custom
// `model_providers` entry, `wire_api = "responses"`). Each `POST /v1/responses` is answered with
// the script's step for the number of tool outputs already in the conversation (0: the first call;
// 1: after the first result; ...), streamed as the SSE events Codex 0.169.0 reads. Every request is
// recorded, so a test can check what the model was told about each call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type CodexStep =
  { kind: 'shell'; command: string } | { kind: 'patch'; patch: string } | { kind: 'text'; text: string };

export const shell = (command: string): CodexStep => ({ kind: 'shell', command });
export const applyPatch = (patch: string): CodexStep => ({ kind: 'patch', patch });
export const reply = (text: string): CodexStep => ({ kind: 'text', text });

interface InputItem {
  type?: string;
  call_id?: string;
  output?: unknown;
}
interface ResponsesRequest {
  input?: InputItem[];
}

export interface ToolOutput {
  callId: string;
  /** What Codex told the model: the command's output, or `Command blocked by PreToolUse hook: ...`. */
  output: string;
}

/** The tool outputs the conversation carries, oldest first. */
export function toolOutputs(body: ResponsesRequest): ToolOutput[] {
  return (body.input ?? [])
    .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
    .map((item) => ({
      callId: item.call_id ?? '',
      output: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
    }));
}

export interface CodexStandIn {
  /** The provider's base URL (ends in /v1). */
  url: string;
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

function outputItem(step: CodexStep, n: number) {
  const callId = `call_${n}_${Math.random().toString(36).slice(2, 8)}`;
  if (step.kind === 'shell') {
    return {
      type: 'function_call',
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: step.command }),
      call_id: callId,
    };
  }
  // apply_patch is a freeform tool: its input is the patch text itself.
  if (step.kind === 'patch')
    return { type: 'custom_tool_call', name: 'apply_patch', input: step.patch, call_id: callId };
  return { type: 'message', role: 'assistant', id: `msg_${n}`, content: [{ type: 'output_text', text: step.text }] };
}

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startCodexStandIn(steps: CodexStep[]): Promise<CodexStandIn> {
  const requests: ResponsesRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || !path.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not in the stand-in' } }));
        return;
      }
      let body: ResponsesRequest = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ResponsesRequest;
      } catch {
        // Recorded as empty: a test that expects something will say what was missing.
      }
      requests.push(body);
      const n = requests.length;
      const step = steps[toolOutputs(body).length] ?? reply('Done.');
      const id = `resp_${n}`;
      const events = [
        { type: 'response.created', response: { id } },
        { type: 'response.output_item.done', item: outputItem(step, n) },
        {
          type: 'response.completed',
          response: { id, usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 } },
        },
      ];
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
