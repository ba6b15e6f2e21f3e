// The transcript keeps both calls of an edited approval (the agent's `params`, the approver's
// `editedParams`) and who approved a call that needs several approvers, so far and in the end.
import { expect, it } from 'vitest';
import { emptyTranscript, transcriptReducer, type ToolItem, type TranscriptAction } from './transcript';
import type { LoggedEvent } from '@/lib/contract';

let seq = 0;
const ev = (event: Record<string, unknown>): TranscriptAction => ({
  type: 'event',
  event: { runId: 'run-1', seq: ++seq, agentId: 'main', parents: [], ...event } as unknown as LoggedEvent,
});
const tool = (actions: TranscriptAction[]) =>
  actions.reduce(transcriptReducer, emptyTranscript).items.find((i): i is ToolItem => i.kind === 'tool');
const ann = { by: 'ann', role: 'approver', at: 1 };
const ben = { by: 'ben', role: 'admin', at: 2 };
const call = ev({ type: 'tool_call', toolCallId: 'c1', name: 'bash', params: { command: 'deploy prod' } });

it('a partial quorum shows who approved so far, and an approver’s edit, while the call waits', () => {
  const item = tool([
    call,
    ev({
      type: 'relay_progress',
      relayId: 'r1',
      toolCallId: 'c1',
      approvals: [ann],
      needed: 2,
      params: { command: 'deploy staging' },
    }),
  ]);
  expect(item).toMatchObject({
    params: { command: 'deploy prod' },
    editedParams: { command: 'deploy staging' },
    progress: { approvals: [ann], needed: 2 },
  });
});

it('the approval keeps the agent’s call and the edited one, and every approver', () => {
  const item = tool([
    call,
    ev({
      type: 'relay_resolved',
      relayId: 'r1',
      toolCallId: 'c1',
      status: 'approved',
      decidedBy: 'ben',
      params: { command: 'deploy staging' },
      approvals: [ann, ben],
    }),
  ]);
  expect(item).toMatchObject({
    status: 'running',
    params: { command: 'deploy prod' },
    editedParams: { command: 'deploy staging' },
    progress: { approvals: [ann, ben], needed: 2 },
  });
});
