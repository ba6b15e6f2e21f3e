// One-instance probes: a run `$ date +%s%N` started with POST /api/chat, timed on that request's
// own stream from the gate's decision to the relay, and from the decision POST to the approved
// command running (it prints its own start); plus the spawn baseline of this client process.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { calibrate, wallMs } from './clock';
import { PROBE_BUDGET_MS } from './config';
import { decide, startRun } from './sse';

export interface Probe {
  runId: string;
  relayId: string;
  /** Client clock (ms): POST /api/chat sent, relay received, decision POST sent, bash running. */
  tPost: number;
  tRelay: number;
  tDecision: number;
  tStarted: number;
  /** tool_call and relay came out of the same read of the stream. */
  sameRead: boolean;
  /** receipt(relay) - relay.createdAt */
  callToRelay: number;
  /** receipt(relay) - receipt(tool_call) */
  toolCallToRelay: number;
  /** receipt(relay) - POST /api/chat sent */
  postToRelay: number;
  /** bash start (date +%s%N) - decision POST sent */
  decisionToStart: number;
  /** decision POST answered - sent */
  decisionResponse: number;
  /** receipt(tool_result) - bash start */
  startToResult: number;
}

/** How the probes' bash commands were started (tool_result metadata.spawnedVia, and warmStart: a spare bash took it). */
export const spawnedVia = new Map<string, number>();

/** The start time (CLOCK_REALTIME ms) printed by `date +%s%N` in a tool_result, counting how bash was spawned. */
export function commandStart(data: Record<string, unknown>): number {
  const output = String(data.output ?? '');
  const ns = /(\d{18,})/.exec(output)?.[1];
  if (!ns || data.isError === true) throw new Error(`unexpected tool_result: ${output.slice(0, 200)}`);
  const meta = data.metadata as { spawnedVia?: string; warmStart?: boolean } | undefined;
  const via = `${meta?.spawnedVia ?? 'unknown'}${meta?.warmStart ? ' (spare bash)' : ''}`;
  spawnedVia.set(via, (spawnedVia.get(via) ?? 0) + 1);
  return Number(BigInt(ns) / 1000n) / 1000;
}

async function probe(base: string): Promise<Probe> {
  calibrate();
  const tPost = wallMs();
  const stream = await startRun(base, '$ date +%s%N');
  try {
    const connected = await stream.until('connected');
    const call = await stream.until('tool_call');
    const relayEvent = await stream.until('relay');
    const decision = call.data.decision as { action?: string } | undefined;
    if (decision?.action !== 'ask')
      throw new Error(`the probe's bash call was decided "${decision?.action}", expected "ask"`);
    const relay = relayEvent.data as { id: string; createdAt: number };
    const { sentAt: t0, answeredAt: tAnswered } = await decide(base, relay.id, String(connected.data.sessionId));
    const result = await stream.until('tool_result');
    const startedAt = commandStart(result.data);
    await stream.until('done');
    return {
      runId: String(connected.data.runId),
      relayId: relay.id,
      tPost,
      tRelay: relayEvent.at,
      tDecision: t0,
      tStarted: startedAt,
      sameRead: call.at === relayEvent.at,
      callToRelay: relayEvent.at - relay.createdAt,
      toolCallToRelay: relayEvent.at - call.at,
      postToRelay: relayEvent.at - tPost,
      decisionToStart: startedAt - t0,
      decisionResponse: tAnswered - t0,
      startToResult: result.at - startedAt,
    };
  } finally {
    stream.close();
  }
}

export interface ProbeSet<P = Probe> {
  probes: P[];
  failed: number;
  errors: string[];
  stoppedEarly?: string;
}

/** Runs `count` probes one at a time (`one(i)` is the i-th), within PROBE_BUDGET_MS. */
export async function probeSeries<P>(count: number, one: (i: number) => Promise<P>): Promise<ProbeSet<P>> {
  const deadline = performance.now() + PROBE_BUDGET_MS;
  const out: P[] = [];
  const errors: string[] = [];
  let failed = 0;
  let stoppedEarly: string | undefined;
  for (let i = 0; i < count; i++) {
    if (performance.now() > deadline) {
      stoppedEarly = `probe budget of ${PROBE_BUDGET_MS / 1000} s used up after ${i} probes`;
      break;
    }
    try {
      out.push(await one(i));
    } catch (error) {
      failed++;
      if (errors.length < 5) errors.push((error as Error).message);
      if (failed >= 5 && out.length === 0) {
        stoppedEarly = 'the first 5 probes failed';
        break;
      }
    }
  }
  return { probes: out, failed, errors, ...(stoppedEarly ? { stoppedEarly } : {}) };
}

export const probes = (count: number, base: string): Promise<ProbeSet> => probeSeries(count, () => probe(base));

/** How long spawning `/bin/bash -c 'date +%s%N'` takes from this (client) process, to the command's start. */
export async function spawnBaseline(count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    calibrate();
    const t0 = wallMs();
    const text = await new Promise<string>((resolve, reject) => {
      const child = spawn('/bin/bash', ['-c', 'date +%s%N'], {
        cwd: os.tmpdir(),
        // As the bash tool does (lib/agent/tools/bash.ts); the cast only drops Next's required NODE_ENV.
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8', TERM: 'dumb' } as Record<
          string,
          string
        > as NodeJS.ProcessEnv,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let s = '';
      child.stdout.on('data', (d: Buffer) => (s += d.toString()));
      child.once('error', reject);
      child.once('close', () => resolve(s));
    });
    const ns = /(\d{18,})/.exec(text)?.[1];
    if (ns) out.push(Number(BigInt(ns) / 1000n) / 1000 - t0);
  }
  return out;
}
