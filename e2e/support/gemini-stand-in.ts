// A scripted stand-in for the Gemini API (generativelanguage), so the real Gemini CLI runs offline
// (GOOGLE_GEMINI_BASE_URL). A main-loop request is a `:streamGenerateContent`; its answer is the
// script's step for the number of function responses already in the conversation (0: the first
// call; 1: after the first result; ...), as one SSE chunk. Other requests (a `:generateContent`
// side question, `:countTokens`) get a harmless answer. Every request is recorded, so a test can
// check what the model was told about each call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type GeminiStep = { kind: 'call'; name: string; args: Record<string, unknown> } | { kind: 'text'; text: string };

export const shell = (command: string): GeminiStep => ({
  kind: 'call',
  name: 'run_shell_command',
  args: { command, description: 'Run a command' },
});
export const reply = (text: string): GeminiStep => ({ kind: 'text', text });

interface Part {
  text?: string;
  functionCall?: { name: string; args?: unknown };
  functionResponse?: { name: string; response?: { output?: string; error?: string } };
}
interface GenerateRequest {
  contents?: { role?: string; parts?: Part[] }[];
}

export interface FunctionResponse {
  name: string;
  /** What the tool returned (it ran), or undefined. */
  output?: string;
  /** Why it did not run (`Tool execution blocked: <reason>`), or undefined. */
  error?: string;
}

/** The function responses the conversation carries, oldest first. */
export function functionResponses(body: GenerateRequest): FunctionResponse[] {
  return (body.contents ?? [])
    .flatMap((content) => content.parts ?? [])
    .flatMap((part) => (part.functionResponse ? [part.functionResponse] : []))
    .map((r) => ({ name: r.name, output: r.response?.output, error: r.response?.error }));
}

export interface GeminiStandIn {
  url: string;
  /** The main-loop requests, in order. */
  requests: GenerateRequest[];
  close(): Promise<void>;
}

const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 };

function candidate(step: GeminiStep) {
  const part = step.kind === 'text' ? { text: step.text } : { functionCall: { name: step.name, args: step.args } };
  return { content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 };
}

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startGeminiStandIn(steps: GeminiStep[]): Promise<GeminiStandIn> {
  const requests: GenerateRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      let body: GenerateRequest = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as GenerateRequest;
      } catch {
        // Recorded as empty: a test that expects something will say what was missing.
      }
      if (req.method === 'POST' && path.endsWith(':streamGenerateContent')) {
        requests.push(body);
        const step = steps[functionResponses(body).length] ?? reply('Done.');
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(`data: ${JSON.stringify({ candidates: [candidate(step)], usageMetadata })}\n\n`);
        return;
      }
      res.writeHead(req.method === 'POST' ? 200 : 404, { 'content-type': 'application/json' });
      if (path.endsWith(':countTokens')) res.end(JSON.stringify({ totalTokens: 10 }));
      else if (path.endsWith(':generateContent'))
        res.end(JSON.stringify({ candidates: [candidate(reply('{}'))], usageMetadata }));
      else res.end(JSON.stringify({ error: { code: 404, message: 'not in the stand-in' } }));
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
