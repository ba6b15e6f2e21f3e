// MCP server benchmark.  Run: npm run bench:mcp  (tsx bench/mcp.bench.ts)
//
// What it compares, side by side in one run: an allowed `tools/call` made by an MCP client (the
// official SDK) through Gatehouse's /api/mcp to an upstream MCP server, against the same client
// calling the same upstream server directly. The difference is what Gatehouse adds: HTTP to
// Gatehouse, the token check, the signed session, the policy decision, the run's tool_call event
// and audit row, the execution claim and the tool_result event, and Gatehouse's own client hop to
// the upstream.
// Upstream: an SDK server with read-only `echo` and `blob` tools over Streamable HTTP, in a process
// of its own as HTTP MCP servers are (bench/mcp/upstream-server.mjs; both paths pay for it).
// Gatehouse: the production build (`next start` through scripts/serve.sh, embedded PGlite, offline
// model), configured with the upstream as `up` (GATEHOUSE_MCP_CONFIG, trusted) and a stored policy
// allowing `mcp__up__echo` and `mcp__up__blob`.
// Method: warm-up calls on every path, then calls alternating direct / through a bare node proxy /
// through Gatehouse, one at a time; p50 and p99 of each and their difference. The warm-up is long
// (BENCH_MCP_WARMUP, default 2,000 calls on each path): V8 keeps optimizing Gatehouse's server code
// on a background thread for the first thousand or so calls, at several ms of CPU per call on 2
// cores, so a short warm-up measures the compiler, not the gateway. The server's CPU time per call
// is printed for the first warm-up calls and for the measured ones, so a reader sees it settle.
// The bare proxy (bench/mcp/bare-proxy.ts), a process of its own as Gatehouse is, only forwards
// over a kept-alive connection: what the second HTTP hop alone adds, the floor of any gateway.
// BENCH_MCP_CALLS (default 400), BENCH_QUICK=1 (100 calls). Where the time goes: the same
// alternation for `tools/list` (HTTP, routing, the token, the session, the answer: no gate, no
// database), and a call the policy refuses (a deny rule on the text `refuse*`: the gate and its one
// write, no claim, no upstream). (c): an allowed call whose result is 100 KB of text (the upstream's
// `blob`), direct and through Gatehouse, alternating: what Gatehouse adds per byte of a result (its
// check, the journal line, the answer written again).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOKEN } from './gate/config';
import { startBareProxy } from './mcp/bare-proxy';
import { startChildServer } from './mcp/child';
import { boot, cleanup, ensureBuild, freePort, printServerLog, removeAtExit, stopServer } from './gate/servers';
import { cpuSeconds, machineJiffies, noisyNote, stealWindow } from './gate/proc';
import { pct, table } from './gate/stats';

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? (process.env.BENCH_QUICK ? 100 : 400));
const WARMUP = Number(process.env.BENCH_MCP_WARMUP ?? 2_000);
if (!Number.isInteger(WARMUP) || WARMUP < 1)
  throw new Error('BENCH_MCP_WARMUP must be a whole number of calls, at least 1');
/** The first warm-up calls whose server CPU time is printed (the compiler's share shows there). */
const EARLY = Math.min(200, WARMUP);
/** (c)'s result size: a file read, a page fetched. */
const LARGE_BYTES = 100_000;

/** The upstream: a process of its own (bench/mcp/upstream-server.mjs), as an HTTP MCP server is. */
async function startUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const { port, close } = await startChildServer('upstream-server.mjs');
  return { url: `http://127.0.0.1:${port}/mcp`, close };
}

async function client(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

async function allowUpstreamTools(base: string): Promise<void> {
  const auth = { authorization: `Bearer ${TOKEN}` };
  const current = await fetch(`${base}/api/policy`, { headers: auth });
  const { version, policy } = (await current.json()) as { version: number; policy: { rules: unknown[] } };
  const saved = await fetch(`${base}/api/policy`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/json', 'if-match': `"${version}"` },
    body: JSON.stringify({
      policy: {
        ...policy,
        rules: [
          { action: 'deny', tool: 'mcp__up__echo', params: { text: 'refuse*' } },
          { action: 'allow', tool: 'mcp__up__echo' },
          { action: 'allow', tool: 'mcp__up__blob' },
          ...policy.rules,
        ],
      },
    }),
  });
  if (!saved.ok)
    throw new Error(`could not allow mcp__up__echo and mcp__up__blob: ${saved.status} ${await saved.text()}`);
}

async function time(c: Client, name: string, i: number, refused = false): Promise<number> {
  const t0 = performance.now();
  const result = await c.callTool({ name, arguments: { text: `${refused ? 'refuse' : 'call'} ${i}` } });
  const elapsed = performance.now() - t0;
  if (Boolean(result.isError) !== refused)
    throw new Error(`${name}: ${refused ? 'not refused' : 'failed'}: ${JSON.stringify(result.content)}`);
  return elapsed;
}

async function timeBlob(c: Client, name: string): Promise<number> {
  const t0 = performance.now();
  const result = await c.callTool({ name, arguments: { bytes: LARGE_BYTES } });
  const elapsed = performance.now() - t0;
  const text = (result.content as { text?: string }[])[0]?.text;
  if (result.isError || text?.length !== LARGE_BYTES) throw new Error(`${name}: no ${LARGE_BYTES}-byte result`);
  return elapsed;
}

async function timeList(c: Client): Promise<number> {
  const t0 = performance.now();
  await c.listTools();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  ensureBuild();
  const upstream = await startUpstream();
  const dir = removeAtExit(mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-mcp-')));
  const config = path.join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { up: { type: 'http', url: upstream.url, trusted: true } } }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child } = await boot(base, port, path.join(dir, 'data'), { GATEHOUSE_MCP_CONFIG: config });
  try {
    await allowUpstreamTools(base);
    const direct = await client(upstream.url);
    const proxy = await startBareProxy(upstream.url);
    const proxied = await client(proxy.url);
    const gated = await client(`${base}/api/mcp`, { authorization: `Bearer ${TOKEN}` });
    const listed = (await gated.listTools()).tools.map((t) => t.name);
    if (!listed.includes('mcp__up__echo'))
      throw new Error(`Gatehouse does not list mcp__up__echo: ${listed.join(', ')}`);
    const serverCpu = () => cpuSeconds(child.pid!);
    let earlyCpuMs = NaN;
    for (let i = 0, cpu0 = serverCpu(); i < WARMUP; i++) {
      await time(direct, 'echo', i);
      await time(proxied, 'echo', i);
      await time(gated, 'mcp__up__echo', i);
      if (i + 1 === EARLY) earlyCpuMs = ((serverCpu() - cpu0) * 1000) / EARLY;
    }
    const steal = stealWindow();
    const measuredCpu0 = serverCpu();
    const busyStart = machineJiffies();
    const a: number[] = [];
    const b: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      a.push(await time(direct, 'echo', i));
      floor.push(await time(proxied, 'echo', i));
      b.push(await time(gated, 'mcp__up__echo', i));
    }
    const measuredCpuMs = ((serverCpu() - measuredCpu0) * 1000) / CALLS;
    // Printed now: a failure in (b) must not lose (a)'s figures.
    console.log(`\n(a) an allowed tools/call, ${CALLS} calls each after ${WARMUP} warm-up, alternating:`);
    const row = (name: string, xs: number[]) => [name, pct(xs, 50).toFixed(2), pct(xs, 99).toFixed(2)];
    table(
      ['path', 'p50 ms', 'p99 ms'],
      [
        row('direct to the upstream', a),
        row('through Gatehouse /api/mcp', b),
        ['added by Gatehouse', (pct(b, 50) - pct(a, 50)).toFixed(2), (pct(b, 99) - pct(a, 99)).toFixed(2)],
        row('through a bare node proxy (no gate)', floor),
        ['added by the bare proxy', (pct(floor, 50) - pct(a, 50)).toFixed(2), (pct(floor, 99) - pct(a, 99)).toFixed(2)],
        [
          'Gatehouse above the bare proxy (its own work)',
          (pct(b, 50) - pct(floor, 50)).toFixed(2),
          (pct(b, 99) - pct(floor, 99)).toFixed(2),
        ],
      ],
    );
    console.log(
      `  Gatehouse's server CPU per allowed call: ${earlyCpuMs.toFixed(2)} ms in the first ${EARLY} warm-up calls, ${measuredCpuMs.toFixed(2)} ms in the measured ones (all threads: the call's path, the records stored after it, garbage collection and V8's compiler)`,
    );
    const listA: number[] = [];
    const listB: number[] = [];
    const refused: number[] = [];
    for (let i = 0; i < Math.min(WARMUP, 200); i++) await Promise.all([timeList(direct), timeList(gated)]);
    for (let i = 0; i < CALLS; i++) {
      listA.push(await timeList(direct));
      listB.push(await timeList(gated));
      refused.push(await time(gated, 'mcp__up__echo', i, true));
    }
    console.log(`\n(b) where the time goes, ${CALLS} each after warm-up (list and refused call alternating):`);
    table(
      ['series', 'p50 ms', 'p99 ms'],
      [
        row('tools/list direct', listA),
        row('tools/list through Gatehouse', listB),
        ['tools/list added (HTTP, routing, token, session)', (pct(listB, 50) - pct(listA, 50)).toFixed(2), '-'],
        row('refused call through Gatehouse (the gate, no upstream)', refused),
        ['allowed - refused (claim, upstream hop, result write)', (pct(b, 50) - pct(refused, 50)).toFixed(2), '-'],
      ],
    );
    const largeA: number[] = [];
    const largeB: number[] = [];
    for (let i = 0; i < Math.min(WARMUP, 50); i++)
      await Promise.all([timeBlob(direct, 'blob'), timeBlob(gated, 'mcp__up__blob')]);
    for (let i = 0; i < Math.ceil(CALLS / 2); i++) {
      largeA.push(await timeBlob(direct, 'blob'));
      largeB.push(await timeBlob(gated, 'mcp__up__blob'));
    }
    console.log(
      `\n(c) an allowed call with a ${LARGE_BYTES / 1000} KB result, ${largeA.length} each after warm-up, alternating:`,
    );
    table(
      ['path', 'p50 ms', 'p99 ms'],
      [
        row('direct to the upstream', largeA),
        row('through Gatehouse /api/mcp', largeB),
        [
          'added by Gatehouse',
          (pct(largeB, 50) - pct(largeA, 50)).toFixed(2),
          (pct(largeB, 99) - pct(largeA, 99)).toFixed(2),
        ],
      ],
    );
    const stealPct = steal();
    const busyEnd = machineJiffies();
    const busyPct = ((busyEnd.busy - busyStart.busy) / Math.max(1, busyEnd.total - busyStart.total)) * 100;
    console.log(
      `\n  CPU steal during the calls: ${Number.isFinite(stealPct) ? stealPct.toFixed(1) : '?'}%, machine busy ${busyPct.toFixed(0)}% (this benchmark's own processes included)${noisyNote(stealPct, 'the calls')}`,
    );
    await Promise.all([direct.close(), gated.close(), proxied.close()]);
    await proxy.close();
  } catch (error) {
    printServerLog();
    throw error;
  } finally {
    await stopServer(child);
    await upstream.close();
    cleanup();
  }
}

await main();
