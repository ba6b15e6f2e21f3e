// Decisions per second across two instances: K runs paused (started alternately on A and B), then
// all K approvals POSTed with a bounded number in flight, each to A or B so that a quarter of them
// goes each way (A-executed to A, A to B, B to B, B to A). Timed on the client (POST latency,
// accepted/s) and from the database (each run's `done` event: completed/s, decision->done). Then
// checked: every run done, one tool execution and one tool_result per run, with the right output.
import type pg from 'pg';
import { Background, type FillReport, type Paused } from './background';
import { calibrate, wallMs } from './clock';
import type { Instance } from './cross-probe';
import { CpuWindow, procTree } from './proc';
import { sleep } from './servers';
import { approve } from './sse';

export interface Decision {
  run: Paused;
  executedBy: string;
  to: string;
  /** Client clock (ms) sent and answered; status 0 = no response (the error is kept). */
  t0: number;
  t1: number;
  status: number;
  error?: string;
}

export interface ThroughputResult {
  k: number;
  concurrency: number;
  fill: FillReport;
  decisions: Decision[];
  /** Client clock: first POST sent, last answer received; database clock: last `done` stored. */
  tFirst: number;
  tLastAnswer: number;
  tLastDone: number | undefined;
  /** Per run: `done` stored (server) - its decision POST sent (client). */
  decisionToDone: Map<string, number>;
  /** Problems found by the checks (empty: every run finished correctly). */
  problems: string[];
  finished: number;
  /** CPU use from the first POST until every run finished. */
  cpu: ReturnType<CpuWindow['read']>;
}

const COMPLETION_BUDGET_MS = 120_000;

export async function throughput(
  a: Instance,
  b: Instance,
  k: number,
  concurrency: number,
  db: pg.Client,
): Promise<ThroughputResult> {
  const set = new Background((n) => (n % 2 === 1 ? a : b), 't');
  const fill = await set.fill(k);
  const runs = set.paused;
  const ids = runs.map((r) => r.runId);
  const owners = new Map(
    (
      await db.query<{ run_id: string; owner: string | null }>(
        'select run_id, owner from run_leases where run_id = any($1)',
        [ids],
      )
    ).rows.map((r) => [r.run_id, r.owner]),
  );
  const nameOf = (owner: string | null | undefined) => (owner === a.id ? a.name : owner === b.id ? b.name : '?');
  // Per executor, every other decision goes to the other instance; the two lists interleaved.
  const byExecutor = (name: string) => runs.filter((r) => nameOf(owners.get(r.runId)) === name);
  const plan: Array<{ run: Paused; executedBy: string; to: Instance }> = [];
  const onA = byExecutor(a.name);
  const onB = byExecutor(b.name);
  const unknown = runs.filter((r) => nameOf(owners.get(r.runId)) === '?');
  for (let i = 0; i < Math.max(onA.length, onB.length); i++) {
    if (onA[i]) plan.push({ run: onA[i]!, executedBy: a.name, to: i % 2 === 0 ? a : b });
    if (onB[i]) plan.push({ run: onB[i]!, executedBy: b.name, to: i % 2 === 0 ? b : a });
  }
  for (const [i, run] of unknown.entries()) plan.push({ run, executedBy: '?', to: i % 2 === 0 ? a : b });

  calibrate();
  const cpu = new CpuWindow([procTree(a.child.pid!), procTree(b.child.pid!)]);
  const decisions: Decision[] = [];
  let next = 0;
  const tFirst = wallMs();
  const worker = async () => {
    while (next < plan.length) {
      const { run, executedBy, to } = plan[next++]!;
      const t0 = wallMs();
      try {
        const response = await approve(to.base, run.relayId, run.sessionId);
        const t1 = wallMs();
        const text = await response.text(); // read, so the connection is free for the next decision
        decisions.push({
          run,
          executedBy,
          to: to.name,
          t0,
          t1,
          status: response.status,
          ...(response.ok ? {} : { error: text.slice(0, 200) }),
        });
      } catch (error) {
        decisions.push({ run, executedBy, to: to.name, t0, t1: wallMs(), status: 0, error: (error as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, plan.length) }, worker));
  const tLastAnswer = Math.max(...decisions.map((x) => x.t1));

  // Completion: poll the database (lightly) until every run has finished, then read the stamps.
  const deadline = performance.now() + COMPLETION_BUDGET_MS;
  let finished: number;
  for (;;) {
    finished = Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from runs where id = any($1) and status in ('done', 'failed', 'cancelled')`,
          [ids],
        )
      ).rows[0]?.n ?? 0,
    );
    if (finished >= ids.length || performance.now() > deadline) break;
    await sleep(25);
  }
  const cpuUsed = cpu.read();
  const checked = await check(db, runs);
  const sentAt = new Map(decisions.map((x) => [x.run.runId, x.t0]));
  const decisionToDone = new Map<string, number>();
  for (const [runId, doneAt] of checked.doneAt) {
    const t0 = sentAt.get(runId);
    if (t0 !== undefined) decisionToDone.set(runId, doneAt - t0);
  }
  const problems = [...checked.problems];
  if (finished < ids.length)
    problems.unshift(
      `${ids.length - finished} of ${ids.length} runs had not finished after ${COMPLETION_BUDGET_MS / 1000} s`,
    );
  if (fill.added < k) problems.unshift(`only ${fill.added} of ${k} runs were paused before the decisions`);
  const tLastDone = checked.doneAt.size ? Math.max(...checked.doneAt.values()) : undefined;
  return {
    k,
    concurrency,
    fill,
    decisions,
    tFirst,
    tLastAnswer,
    tLastDone,
    decisionToDone,
    problems,
    finished,
    cpu: cpuUsed,
  };
}

/** Every run done, exactly one claimed execution and one tool_result (its own output) per run. */
async function check(db: pg.Client, runs: Paused[]): Promise<{ doneAt: Map<string, number>; problems: string[] }> {
  const ids = runs.map((r) => r.runId);
  const problems: string[] = [];
  const note = (text: string) => problems.length < 8 && problems.push(text);
  const status = new Map(
    (await db.query<{ id: string; status: string }>('select id, status from runs where id = any($1)', [ids])).rows.map(
      (r) => [r.id, r.status],
    ),
  );
  const executions = new Map(
    (
      await db.query<{ run_id: string; n: string }>(
        'select run_id, count(*) as n from tool_executions where run_id = any($1) group by run_id',
        [ids],
      )
    ).rows.map((r) => [r.run_id, Number(r.n)]),
  );
  const results = new Map<string, string[]>();
  for (const r of (
    await db.query<{ run_id: string; output: string | null; is_error: string | null }>(
      `select run_id, data->>'output' as output, data->>'isError' as is_error from events where run_id = any($1) and type = 'tool_result'`,
      [ids],
    )
  ).rows) {
    results.set(r.run_id, [
      ...(results.get(r.run_id) ?? []),
      r.is_error === 'true' ? `error: ${r.output}` : String(r.output),
    ]);
  }
  const doneAt = new Map(
    (
      await db.query<{ run_id: string; t: number }>(
        `select run_id, extract(epoch from created_at)::float8 * 1000 as t from events where run_id = any($1) and type = 'done'`,
        [ids],
      )
    ).rows.map((r) => [r.run_id, r.t]),
  );
  const notDone = runs.filter((r) => status.get(r.runId) !== 'done');
  if (notDone.length)
    note(
      `${notDone.length} runs did not end "done" (e.g. ${notDone[0]!.runId}: ${status.get(notDone[0]!.runId) ?? 'missing'})`,
    );
  const badExec = runs.filter((r) => executions.get(r.runId) !== 1);
  if (badExec.length)
    note(
      `${badExec.length} runs without exactly one tool execution (e.g. ${badExec[0]!.runId}: ${executions.get(badExec[0]!.runId) ?? 0})`,
    );
  const badResult = runs.filter((r) => results.get(r.runId)?.length !== 1 || results.get(r.runId)![0] !== r.output);
  if (badResult.length)
    note(
      `${badResult.length} runs without exactly one tool_result printing their word (e.g. ${JSON.stringify(results.get(badResult[0]!.runId) ?? [])}, expected ${JSON.stringify(badResult[0]!.output)})`,
    );
  return { doneAt, problems };
}
