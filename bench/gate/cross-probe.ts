// Two-instance probes: a run `$ date +%s%N` starts on `exec` (POST /api/chat); its events are
// followed through `via` (GET /api/runs/:id/events) and its relay is approved on `via`. With
// via != exec the figures include the hops between instances: NOTIFY gatehouse_events and the
// follower's log read for the relay; the decision's settle + NOTIFY gatehouse_relay, the executor's
// relay re-read and wake-up for the start. With via == exec it is the same-instance peer.
//
// The run is held just before its gate until the follower's stream is open: the bench takes
// `LOCK TABLE grants IN ACCESS EXCLUSIVE MODE` in a transaction before POST /api/chat and commits
// once `via` sent the first bytes of the stream (it registered the follower before that). The run's
// grants SELECT, which comes after the model step and before the policy decides, waits for it.
// Without the hold the run reaches its relay before a second client can even ask for the stream,
// and the relay would come out of the follower's first read of the log, not a notification.
// call->relay starts at relay.createdAt, taken after the gate decided, so the hold is not in it.
import type { ChildProcess } from 'node:child_process';
import type pg from 'pg';
import { calibrate, wallMs } from './clock';
import { commandStart } from './probe';
import { decide, followRun, startRun, type SseStream } from './sse';

export interface Instance {
  name: 'A' | 'B';
  /** GATEHOUSE_INSTANCE_ID, the owner recorded on the leases it holds. */
  id: string;
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
}

export interface CrossProbe {
  runId: string;
  relayId: string;
  /** Instance names: where the run was started, which instance held its lease (executed it), which served stream and decision. */
  startedOn: string;
  executedBy: string;
  via: string;
  /** Client clock (ms): relay received, decision POST sent, bash running (for the stages). */
  tRelay: number;
  tDecision: number;
  tStarted: number;
  callToRelay: number;
  decisionToStart: number;
  decisionResponse: number;
  /** receipt(tool_result) on via's stream - bash start */
  startToResult: number;
  /** How long the run was held before its gate (hold taken -> released). */
  heldMs: number;
  /** The gate decided after the follower's stream was open (the hold worked: the relay reached it live). */
  decidedAfterOpen: boolean;
}

/** The bench's own connection to the shared database: the hold, and lease owners. */
export class Hold {
  private held = false;

  constructor(private readonly client: pg.Client) {}

  async take(): Promise<void> {
    await this.client.query('BEGIN');
    this.held = true;
    await this.client.query('LOCK TABLE grants IN ACCESS EXCLUSIVE MODE');
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await this.client.query('COMMIT');
  }

  /** The GATEHOUSE_INSTANCE_ID holding the run's lease (the instance executing it), if any. */
  async leaseOwner(runId: string): Promise<string | undefined> {
    const { rows } = await this.client.query<{ owner: string | null }>(
      'select owner from run_leases where run_id = $1',
      [runId],
    );
    return rows[0]?.owner ?? undefined;
  }
}

export async function crossProbe(
  exec: Instance,
  via: Instance,
  hold: Hold,
  byId: Map<string, Instance>,
): Promise<CrossProbe> {
  calibrate();
  let follow: SseStream | undefined;
  try {
    await hold.take();
    const tHeld = wallMs();
    const chat = await startRun(exec.base, '$ date +%s%N');
    let runId: string;
    let sessionId: string;
    try {
      const connected = await chat.until('connected');
      runId = String(connected.data.runId);
      sessionId = String(connected.data.sessionId);
    } finally {
      chat.close(); // a run outlives its stream; only via's stream follows it
    }
    follow = await followRun(via.base, runId);
    await follow.opened();
    const tOpen = wallMs();
    await hold.release();
    const heldMs = wallMs() - tHeld;
    const call = await follow.until('tool_call');
    const relayEvent = await follow.until('relay');
    const decision = call.data.decision as { action?: string } | undefined;
    if (decision?.action !== 'ask')
      throw new Error(`the probe's bash call was decided "${decision?.action}", expected "ask"`);
    const relay = relayEvent.data as { id: string; createdAt: number };
    const owner = await hold.leaseOwner(runId);
    const { sentAt: t0, answeredAt: tAnswered } = await decide(via.base, relay.id, sessionId);
    const result = await follow.until('tool_result');
    const startedAt = commandStart(result.data);
    await follow.until('done');
    return {
      runId,
      relayId: relay.id,
      startedOn: exec.name,
      executedBy: (owner && byId.get(owner)?.name) ?? (owner ? `? (${owner})` : '?'),
      via: via.name,
      tRelay: relayEvent.at,
      tDecision: t0,
      tStarted: startedAt,
      callToRelay: relayEvent.at - relay.createdAt,
      decisionToStart: startedAt - t0,
      decisionResponse: tAnswered - t0,
      startToResult: result.at - startedAt,
      heldMs,
      decidedAfterOpen: relay.createdAt >= Math.floor(tOpen),
    };
  } finally {
    await hold.release();
    follow?.close();
  }
}

/** The probe order within a level: both directions across, then both instances on their own, repeated. */
export function probePlan(i: number, a: Instance, b: Instance): [exec: Instance, via: Instance] {
  return (
    [
      [a, b],
      [b, a],
      [a, a],
      [b, b],
    ] as const
  )[i % 4]! as [Instance, Instance];
}

/** Across: executed by one instance, served by the other (a probe whose lease owner is unknown is neither). */
export const isCross = (p: CrossProbe): boolean =>
  (p.executedBy === 'A' || p.executedBy === 'B') && p.executedBy !== p.via;
export const isSame = (p: CrossProbe): boolean => p.executedBy === p.via;
