import { describe, expect, it } from 'vitest';
import { decodeSessionId, encodeSessionId, mcpSessionKey, newSessionId, type McpSessionState } from './session-id';

const key = mcpSessionKey('secret-a');
const state: McpSessionState = {
  sid: newSessionId(),
  owner: 'u1',
  tokenId: 't1',
  client: 'claude-code',
  title: 'Claude Code',
  elicitation: true,
  declineWithoutElicitation: false,
};

describe('MCP session ids', () => {
  it('a session id signed by this server decodes to its state on any instance with the same secret', () => {
    const id = encodeSessionId(key, state);
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    expect(decodeSessionId(mcpSessionKey('secret-a'), id)).toEqual(state);
  });

  it('a session id signed with another secret, altered or malformed is no session', () => {
    const id = encodeSessionId(key, state);
    expect(decodeSessionId(mcpSessionKey('secret-b'), id)).toBeUndefined();
    const [payload, signature] = id.split('.');
    const forged = Buffer.from(JSON.stringify({ ...state, owner: 'admin' })).toString('base64url');
    expect(decodeSessionId(key, `${forged}.${signature}`)).toBeUndefined();
    for (const bad of [null, '', 'x', `${payload}`, `${payload}.${signature}.x`, `${payload}.`, 'a'.repeat(5000)])
      expect(decodeSessionId(key, bad)).toBeUndefined();
  });
});
