// An MCP client built with the official SDK, pointed at a Gatehouse /api/mcp with an API token,
// optionally answering elicitation; `fetch` lets a spec spread its requests over instances.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { E2E_ADMIN_TOKEN } from './auth';

export async function mcpClient(
  base: string,
  name: string,
  opts: {
    elicit?: (message: string) => ElicitResult | Promise<ElicitResult>;
    fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
  } = {},
) {
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: opts.elicit ? { elicitation: { form: {} } } : {} },
  );
  const { elicit } = opts;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params.message));
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', base), {
      requestInit: { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } },
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    }),
  );
  return client;
}

export const resultText = (result: unknown) =>
  ((result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

/** The run of the MCP client named `agent` (its session), once it has one. */
export async function mcpRun(
  base: string,
  agent: string,
  headers: Record<string, string>,
): Promise<{ id: string; status: string }> {
  for (;;) {
    const { items } = (await (await fetch(`${base}/api/runs?limit=200`, { headers })).json()) as {
      items: Array<{ id: string; agent: string; source: string; status: string }>;
    };
    const run = items.find((r) => r.source === 'mcp' && r.agent === agent);
    if (run) return run;
    await new Promise((r) => setTimeout(r, 100));
  }
}
