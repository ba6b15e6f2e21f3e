// What a webhook receives: params whole up to the cap, a digest above it; a Slack body with the link.
import { describe, expect, it } from 'vitest';
import type { RelayRow } from '../../db';
import { eventBody, PARAMS_CAP_BYTES, renderBody } from './payload';

const row = (params: Record<string, unknown>): RelayRow =>
  ({
    id: 'r1',
    runId: 'run1',
    sessionId: 's1',
    agentId: 'main',
    toolCallId: 'c1',
    tool: 'bash',
    params,
    request: { risk: 'write', decision: { action: 'ask', reason: 'risk_default', explanation: 'bash asks' } },
    status: 'approved',
    response: null,
    reason: null,
    decidedBy: 'alice',
    decidedAt: new Date('2026-01-01T00:01:00Z'),
    expiresAt: new Date('2026-01-01T00:05:00Z'),
    createdAt: new Date('2026-01-01T00:00:00Z'),
  }) as unknown as RelayRow;

describe('webhook payloads', () => {
  it('sends params above the size cap as their digest', () => {
    const small = eventBody('d1', 'relay.created', row({ command: 'ls' }), 'https://gate.example');
    expect(small.data.relay).toMatchObject({ params: { command: 'ls' }, url: 'https://gate.example/approvals/r1' });
    const big = eventBody(
      'd1',
      'relay.created',
      row({ content: 'x'.repeat(PARAMS_CAP_BYTES) }),
      'https://gate.example',
    );
    expect(big.data.relay.params).toBeUndefined();
    expect(big.data.relay.paramsDigest).toEqual({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: PARAMS_CAP_BYTES + 14,
    });
  });

  it('a resolved event says the outcome and who; the Slack body is text + blocks with the approval link', () => {
    const body = eventBody('d2', 'relay.resolved', row({ command: 'rm -rf build' }), 'https://gate.example');
    expect(body.data.outcome).toMatchObject({ status: 'approved', decidedBy: 'alice' });
    const slack = JSON.parse(renderBody('slack', body));
    expect(slack.text).toBe('Approval decided: bash: rm -rf build — approved by alice');
    expect(slack.blocks.at(-1).elements[0]).toMatchObject({ type: 'button', url: 'https://gate.example/approvals/r1' });
  });
});
