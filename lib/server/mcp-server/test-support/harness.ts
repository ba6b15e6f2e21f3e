// The endpoint behind a fetch function, so the official SDK client talks to it in-process.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { AuthUser } from '../../../auth';
import { handleMcpPost, type McpEndpointDeps } from '../endpoint';
import { loopbackKey } from '../loopback';
import { mcpSessionKey } from '../session-id';
import type { McpExposedTool } from '../tools';
import { TestGate } from './test-gate';

export const alice: AuthUser & { tokenId: string } = {
  id: 'u-alice',
  username: 'alice',
  displayName: 'Alice',
  role: 'user',
  via: 'token',
  tokenId: 'tok-alice',
};

export function textTool(name: string, ran: string[]): McpExposedTool {
  return {
    name,
    description: `${name} for tests`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    risk: 'write',
    parse: (args) =>
      typeof (args as { text?: unknown })?.text === 'string'
        ? { ok: true, params: args as Record<string, unknown> }
        : { ok: false, message: 'text: expected a string' },
    async run(params) {
      ran.push(`${name}:${String(params.text)}`);
      return { content: [{ type: 'text', text: `${name} ran with ${String(params.text)}` }] };
    },
  };
}

export function setup(
  rules: Record<string, 'allow' | 'deny' | 'ask'>,
  options: { decline?: boolean; exposed?: string[] } = {},
) {
  const gate = new TestGate(rules);
  const ran: string[] = [];
  const claims = new Set<string>();
  const answers: Array<{ relayId: string; approved: boolean; accepted: boolean }> = [];
  const deps: McpEndpointDeps = {
    gate,
    sessionKey: mcpSessionKey('test-secret'),
    loopbackKey: loopbackKey('test-secret'),
    workspace: '/tmp/workspace',
    progressIntervalMs: 20,
    version: 'test',
    tools: async () => Object.keys(rules).map((name) => textTool(name, ran)),
    claim: async (runId, callId) => {
      const key = `${runId}/${callId}`;
      if (claims.has(key)) return false;
      claims.add(key);
      return true;
    },
    finish: async (runId, callId, { tool, output, isError }) => {
      gate.results.push({ runId, callId, tool, output, isError });
    },
    declineWithoutElicitation: async () => options.decline === true,
    exposedTools: async () => options.exposed,
    answerRelay: async (user, relayId, answer) => {
      answers.push({ relayId, approved: answer.approved, accepted: gate.answer(relayId, { ...answer, by: user.id }) });
    },
  };
  const users = new Map([['Bearer alice-token', alice]]);
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const user = users.get(request.headers.get('authorization') ?? '');
    if (!user) return new Response('Unauthorized', { status: 401 });
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } });
    return handleMcpPost(request, await request.json(), user, deps);
  };
  async function connect(
    opts: { elicit?: (message: string) => ElicitResult | Promise<ElicitResult>; token?: string; name?: string } = {},
  ) {
    const client = new Client(
      { name: opts.name ?? 'test-client', version: '1.0.0' },
      { capabilities: opts.elicit ? { elicitation: { form: {} } } : {} },
    );
    if (opts.elicit) {
      const elicit = opts.elicit;
      client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params.message));
    }
    const transport = new StreamableHTTPClientTransport(new URL('http://gatehouse.test/api/mcp'), {
      fetch,
      requestInit: { headers: { Authorization: `Bearer ${opts.token ?? 'alice-token'}` } },
    });
    await client.connect(transport);
    return { client, transport };
  }
  return { gate, deps, ran, answers, connect, fetch };
}
