// A scripted stand-in for the Anthropic Messages API, so the real Claude Code CLI runs offline.
// It answers by request content, not by order: Claude Code also sends side requests (titles,
// summaries, quota checks) whose number and timing vary. A main-loop request is one that offers
// the Bash tool; its answer is the script's step for the number of tool results already in the
// conversation (0: the first call; 1: after the first tool result; ...). Everything else gets a
// short text. Every request is recorded, so a test can check what Claude was told.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step = { kind: 'tool_use'; name: string; input: Record<string, unknown> } | { kind: 'text'; text: string };

export const bash = (command: string): Step => ({
  kind: 'tool_use',
  name: 'Bash',
  input: { command, description: 'Run a command' },
});
export const say = (text: string): Step => ({ kind: 'text', text });

export interface RecordedRequest {
  path: string;
  body: MessagesRequest;
  mainLoop: boolean;
}

interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: { role: string; content: string | ContentBlock[] }[];
}
interface ContentBlock {
  type: string;
  text?: string;
  tool_use_id?: string;
  content?: string | { type: string; text?: string }[];
  is_error?: boolean;
}

export interface ToolResult {
  toolUseId: string;
  text: string;
  isError: boolean;
}

/** The tool results the conversation carries, oldest first. */
export function toolResults(body: MessagesRequest): ToolResult[] {
  const results: ToolResult[] = [];
  for (const message of body.messages ?? []) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      const text =
        typeof block.content === 'string'
          ? block.content
          : (block.content ?? []).map((part) => part.text ?? '').join('\n');
      results.push({ toolUseId: block.tool_use_id ?? '', text, isError: block.is_error === true });
    }
  }
  return results;
}

export interface AnthropicStandIn {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const isMainLoop = (body: MessagesRequest) => (body.tools ?? []).some((tool) => tool.name === 'Bash');

/** Starts the stand-in on a free port of 127.0.0.1; `steps[k]` answers a main-loop request that carries k tool results. */
export async function startAnthropicStandIn(steps: Step[]): Promise<AnthropicStandIn> {
  const requests: RecordedRequest[] = [];
  let ids = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || !path.endsWith('/v1/messages')) {
        // count_tokens and anything else: a harmless answer that is not a model turn.
        res.writeHead(path.endsWith('/count_tokens') ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(path.endsWith('/count_tokens') ? { input_tokens: 10 } : { type: 'error' }));
        return;
      }
      let body: MessagesRequest = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as MessagesRequest;
      } catch {
        // Recorded as empty: a test that expects something will say what was missing.
      }
      const mainLoop = isMainLoop(body);
      requests.push({ path, body, mainLoop });
      const step = mainLoop ? (steps[toolResults(body).length] ?? say('Done.')) : say('Gatehouse test');
      const id = `toolu_standin_${++ids}`;
      if (body.stream) streamStep(res, step, body.model ?? 'claude-stand-in', id);
      else replyStep(res, step, body.model ?? 'claude-stand-in', id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function contentBlock(step: Step, id: string) {
  return step.kind === 'text'
    ? { type: 'text', text: step.text }
    : { type: 'tool_use', id, name: step.name, input: step.input };
}

const usage = { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function replyStep(res: http.ServerResponse, step: Step, model: string, id: string) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [contentBlock(step, id)],
      stop_reason: step.kind === 'tool_use' ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage,
    }),
  );
}

// The Messages API's streaming shape: message_start, one content block (start, deltas, stop),
// message_delta with the stop reason, message_stop.
function streamStep(res: http.ServerResponse, step: Step, model: string, id: string) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: object) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', {
    type: 'message_start',
    message: {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  if (step.kind === 'text') {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: step.text },
    });
  } else {
    send('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id, name: step.name, input: {} },
    });
    send('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) },
    });
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: step.kind === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  send('message_stop', { type: 'message_stop' });
  res.end();
}
