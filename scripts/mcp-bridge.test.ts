// The stdio bridge between an SDK client (over an in-memory pair standing for stdio) and the
// endpoint: the session, elicitation and the gate work through it unchanged.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import { setup } from '../lib/server/mcp-server/test-support/harness';
import { bridge } from './mcp-bridge';

it('the stdio bridge relays a session to /api/mcp: tools listed, an asking call confirmed by elicitation', async () => {
  const { fetch, ran } = setup({ echo: 'allow', shout: 'ask' });
  const [clientSide, bridgeSide] = InMemoryTransport.createLinkedPair();
  await bridge(
    bridgeSide,
    new StreamableHTTPClientTransport(new URL('http://gatehouse.test/api/mcp'), {
      fetch,
      requestInit: { headers: { authorization: 'Bearer alice-token' } },
    }),
  );
  const client = new Client({ name: 'desktop', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept' }));
  await client.connect(clientSide);
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'shout']);
  expect((await client.callTool({ name: 'echo', arguments: { text: 'a' } })).isError).toBeFalsy();
  expect((await client.callTool({ name: 'shout', arguments: { text: 'b' } })).isError).toBeFalsy();
  expect(ran).toEqual(['echo:a', 'shout:b']);
  await client.close();
});
