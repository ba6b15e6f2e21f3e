// A call allowed at once whose client is gone by the time it is decided: the tool does not run,
// and the claim taken with the decision is finished as "not run" (never left as a call that may
// have run, and recorded after the claim, through the same path as a result).
import { describe, expect, it } from 'vitest';
import type { McpCallRecord, GatedCallDeps } from './gated-call';
import { gatedCall } from './gated-call';
import { textTool } from './test-support/harness';

const session = {
  sid: 'sid-0123456789abcdef',
  owner: 'u1',
  tokenId: 't1',
  client: 'client',
  title: 'client',
  elicitation: false,
  declineWithoutElicitation: false,
};

function deps(claimed: boolean | undefined) {
  const finished: McpCallRecord[] = [];
  const recorded: McpCallRecord[] = [];
  const value: GatedCallDeps = {
    gate: {
      decide: async () => ({
        runId: 'r1',
        decision: 'allow',
        params: { text: 'x' },
        decidedBy: claimed === undefined ? 'someone' : 'policy',
        reason: 'ok',
        ...(claimed === undefined ? {} : { claimed }),
      }),
      recordResult: async (_run, _call, result) => void recorded.push(result),
    },
    claim: async () => true,
    finish: async (_run, _call, result) => void finished.push(result),
    sessionKey: Buffer.alloc(32),
    loopbackKey: Buffer.alloc(32),
    workspace: '/w',
    progressIntervalMs: 10_000,
  };
  return { value, finished, recorded };
}

function call(d: GatedCallDeps, ran: string[]) {
  return gatedCall(d, {
    tool: textTool('echo', ran),
    args: { text: 'x' },
    session,
    requestId: 1,
    authorization: null,
    cancelled: new AbortController().signal,
    live: () => false,
    send: async () => {},
  });
}

describe('a call decided after its client left', () => {
  it('allowed at once (claimed with the decision): not run, its claim finished as not run', async () => {
    const ran: string[] = [];
    const { value, finished, recorded } = deps(true);
    expect((await call(value, ran)).isError).toBe(true);
    expect(ran).toEqual([]);
    expect(finished).toMatchObject([{ output: expect.stringContaining('Not run'), isError: true }]);
    expect(recorded).toEqual([]);
  });

  it('approved by a person (no claim yet): not run, not claimed, its result recorded', async () => {
    const ran: string[] = [];
    const { value, finished, recorded } = deps(undefined);
    expect((await call(value, ran)).isError).toBe(true);
    expect(ran).toEqual([]);
    expect(finished).toEqual([]);
    expect(recorded).toMatchObject([{ output: expect.stringContaining('Not run') }]);
  });
});
