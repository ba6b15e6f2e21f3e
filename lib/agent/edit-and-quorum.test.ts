// Decisions beyond yes or no in the library: `respond` with edited params runs the edited call
// once (the model reads a note of the change, the events carry both calls), an edit the tool's
// schema refuses or a deny rule matches is refused with nothing decided, and a relay whose ask
// rule needs two approvers waits for two distinct people (`respondAs`); one naming a role waits
// for one such person, never `respond` or an Auto-approve handler.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, EditRefusedError, type AgentEvent, type AgentRun } from './index';
import type { PolicyInput } from '../policy';
import { RelayQuorumError } from '../relay';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-edit-')));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const policy: PolicyInput = {
  riskDefaults: { write: 'ask', read_only: 'allow' },
  rules: [
    { action: 'deny', tool: 'bash', params: { command: 'rm -rf *' } },
    { action: 'ask', tool: 'bash', params: { command: 'echo deploy*' }, approvals: { count: 2 } },
    { action: 'ask', tool: 'bash', params: { command: 'echo wire*' }, approvals: { count: 1, roles: ['admin'] } },
  ],
};

async function collect(run: AgentRun, answer: (event: Extract<AgentEvent, { type: 'relay' }>) => void) {
  const events: AgentEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === 'relay') answer(event);
  }
  return events;
}
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
const say = (content: string) => ({ messages: [{ role: 'user' as const, content }] });
const agent = () => createAgent({ workspace, policy });

describe('edit, then approve', () => {
  it('the edited command runs once; the model reads that the approver changed it; events carry both calls', async () => {
    const events = await collect(agent().invoke(say('$ echo original')), (e) => {
      void e.respond({ approved: true, params: { command: 'echo edited' } });
    });
    expect(of(events, 'tool_call')[0]).toMatchObject({ params: { command: 'echo original' } });
    expect(of(events, 'relay_resolved')[0]).toMatchObject({ status: 'approved', params: { command: 'echo edited' } });
    const [result] = of(events, 'tool_result');
    expect(result?.output).toContain('edited\n');
    expect(result?.output).not.toContain('original\n');
    expect(result?.output).toMatch(/approver edited this call.*command: "echo original" -> "echo edited"/);
    expect(of(events, 'tool_result')).toHaveLength(1);
  });

  it('an edit a deny rule forbids is refused, nothing decided; the relay can still be answered', async () => {
    const refusals: unknown[] = [];
    const events = await collect(agent().invoke(say('$ echo keep')), (e) => {
      void e.respond({ approved: true, params: { command: 'rm -rf build' } }).catch((error: unknown) => {
        refusals.push(error);
        return e.respond({ approved: false, reason: 'fine, no' });
      });
    });
    expect(refusals[0]).toBeInstanceOf(EditRefusedError);
    expect(refusals[0]).toMatchObject({ code: 'conflict:edit_denied' });
    expect(of(events, 'relay_resolved')[0]).toMatchObject({ status: 'denied', reason: 'fine, no' });
  });

  it('params of the wrong shape are refused by field, nothing decided', async () => {
    const refusals: unknown[] = [];
    await collect(agent().invoke(say('$ echo keep')), (e) => {
      void e.respond({ approved: true, params: { command: 42 } }).catch((error: unknown) => {
        refusals.push(error);
        return e.respond({ approved: false });
      });
    });
    expect(refusals[0]).toMatchObject({
      code: 'invalid:params',
      message: expect.stringContaining('response.params.command'),
    });
  });
});

describe('two approvers', () => {
  it('the first approval leaves it pending, the same person twice is refused, a second person runs it', async () => {
    const seen: unknown[] = [];
    const events = await collect(agent().invoke(say('$ echo deploy-now')), (e) => {
      void (async () => {
        expect(e.approvals).toEqual({ count: 2 });
        await expect(e.respond({ approved: true })).rejects.toBeInstanceOf(RelayQuorumError);
        seen.push(await e.respondAs({ user: 'ann', role: 'approver' }, { approved: true }));
        await expect(e.respondAs({ user: 'ann', role: 'approver' }, { approved: true })).rejects.toMatchObject({
          why: 'same_approver',
        });
        seen.push(await e.respondAs({ user: 'ben', role: 'admin' }, { approved: true }));
      })();
    });
    expect(seen).toMatchObject([{ status: 'partial' }, { status: 'decided', outcome: { status: 'approved' } }]);
    expect(of(events, 'relay_progress')[0]).toMatchObject({ needed: 2, approvals: [{ by: 'ann' }] });
    expect(of(events, 'relay_resolved')[0]).toMatchObject({
      status: 'approved',
      approvals: [{ by: 'ann' }, { by: 'ben' }],
    });
    expect(of(events, 'tool_result')[0]?.output).toBe('deploy-now\n');
  });
});

describe('one named approver', () => {
  it('`respond` (no person) and an Auto-approve handler never approve it; a person approves it', async () => {
    const events = await collect(
      createAgent({ workspace, policy, onApproval: 'auto-approve' }).invoke(say('$ echo wire-now')),
      (e) => {
        void (async () => {
          expect(e.approvals).toEqual({ count: 1, roles: ['admin'] });
          await expect(e.respond({ approved: true })).rejects.toBeInstanceOf(RelayQuorumError);
          await e.respondAs({ user: 'ben', role: 'admin' }, { approved: true });
        })();
      },
    );
    expect(of(events, 'relay_resolved')[0]).toMatchObject({ status: 'approved', approvals: [{ by: 'ben' }] });
    expect(of(events, 'tool_result')[0]?.output).toBe('wire-now\n');
  });
});
