// Gatehouse permission-engine benchmark.  Run: npm run bench:policy  (tsx bench/policy.bench.ts)
//
// Scenarios
//   (a) 200-rule policy, ~40 tool names, non-shell calls            target p50 <= 5 us
//   (b) 3-part shell commands vs ~30 command rules, cold and warm    target p50 <= 40 us (cold)
//   (c) scaling: 10 / 100 / 1,000 / 10,000 rules + compilePolicy time
//   (d) Gatehouse vs @cedar-policy/cedar-wasm on an equivalent allow/deny policy (200 and 1,000 rules),
//       with both engines' decisions cross-checked on every call of the comparison set first.
//
// Environment knobs (optional): BENCH_BUDGET_MS (per measured line, default 1500),
// BENCH_QUICK=1 (shorter budgets, for smoke runs).
import { createRequire } from 'node:module';
import { compilePolicy, evaluate } from '../lib/policy/index.js';
import type { Decision, EvaluationContext, PolicyInput, RuleInput, ToolCall } from '../lib/policy/types.js';

// The cedar-wasm `nodejs` build is CommonJS: load it with require so its exports are plain functions.
const require = createRequire(import.meta.url);
const cedar = require('@cedar-policy/cedar-wasm/nodejs') as typeof import('@cedar-policy/cedar-wasm/nodejs');

// ---------------------------------------------------------------------------------------------
// Measurement
// ---------------------------------------------------------------------------------------------

const QUICK = process.env.BENCH_QUICK === '1';
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? (QUICK ? 300 : 1500));
const WARMUP_MS = QUICK ? 100 : 400;
const BATCH = 32;
const MIN_SAMPLES = 200;
const MAX_SAMPLES = 20_000;

/** Sink for results so the JIT cannot drop the calls being timed. */
let sink = 0;
const consume = (d: Decision): void => {
  sink = (sink + d.action.length + (d.parts ? d.parts.length : 0)) | 0;
};

/** Cost of one `hrtime.bigint()` pair, median of many; subtracted from every batch. */
function timerOverheadNs(): number {
  const n = 20_001;
  const xs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const t1 = process.hrtime.bigint();
    xs[i] = Number(t1 - t0);
  }
  xs.sort();
  return xs[n >> 1]!;
}
const TIMER_NS = timerOverheadNs();

interface Stats {
  p50: number; // ns per call
  p99: number;
  mean: number;
  samples: number;
  batch: number;
  calls: number;
  /** Highest call index passed to op (warm-up included). */
  lastIndex: number;
}

function quantile(sorted: Float64Array, q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/**
 * Times `op(i)` (i = running call index, warm-up included). Warm-up runs first for `warmupMs`.
 * Each sample times `batch` consecutive calls (default BATCH) with one hrtime pair; the measured
 * timer overhead is subtracted and the rest divided by the batch size. Samples are taken until
 * `budgetMs` elapses (at least MIN_SAMPLES, at most `maxSamples`), never passing `maxCalls` calls.
 */
function measure(
  op: (i: number) => void,
  opts: {
    budgetMs?: number;
    maxSamples?: number;
    warmupMs?: number;
    maxCalls?: number;
    batch?: number;
    minSamples?: number;
  } = {},
): Stats {
  const batch = opts.batch ?? BATCH;
  const maxCalls = opts.maxCalls ?? Infinity;
  const budgetNs = BigInt(Math.round((opts.budgetMs ?? BUDGET_MS) * 1e6));
  const warmNs = BigInt(Math.round((opts.warmupMs ?? WARMUP_MS) * 1e6));
  const minSamples = opts.minSamples ?? MIN_SAMPLES;
  let i = 0;
  const ws = process.hrtime.bigint();
  // Warm-up uses at most a fifth of the call pool.
  while (i + batch <= maxCalls / 5 && process.hrtime.bigint() - ws < warmNs) for (let j = 0; j < batch; j++) op(i++);
  const maxSamples = Math.min(opts.maxSamples ?? MAX_SAMPLES, Math.floor((maxCalls - i) / batch));
  if (maxSamples < minSamples) throw new Error(`benchmark bug: call pool too small (${maxSamples} samples possible)`);

  const xs = new Float64Array(maxSamples);
  let n = 0;
  let total = 0;
  const start = process.hrtime.bigint();
  while (n < maxSamples) {
    const t0 = process.hrtime.bigint();
    for (let j = 0; j < batch; j++) op(i++);
    const t1 = process.hrtime.bigint();
    const ns = Math.max(0, Number(t1 - t0) - TIMER_NS);
    xs[n++] = ns / batch;
    total += ns;
    if (n >= minSamples && t1 - start > budgetNs) break;
  }
  const s = xs.subarray(0, n).sort();
  return {
    p50: quantile(s, 0.5),
    p99: quantile(s, 0.99),
    mean: total / (n * batch),
    samples: n,
    batch,
    calls: n * batch,
    lastIndex: i - 1,
  };
}

/** Median wall time (ms) of `fn()` over `runs` runs after one warm-up run. */
function timeMs(fn: () => void, runs: number): number {
  fn();
  const xs: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    fn();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  xs.sort((a, b) => a - b);
  return xs[xs.length >> 1]!;
}

// ---------------------------------------------------------------------------------------------
// Output helpers
// ---------------------------------------------------------------------------------------------

const us = (ns: number): string => (ns / 1000).toFixed(ns < 10_000 ? 2 : 1);
const perSec = (meanNs: number): string => Math.round(1e9 / meanNs).toLocaleString('en-US');

function table(head: string[], rows: string[][], alignLeft = 1): void {
  const w = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const fmt = (r: string[]) => r.map((x, c) => (c < alignLeft ? x.padEnd(w[c]!) : x.padStart(w[c]!))).join('  ');
  console.log('  ' + fmt(head));
  console.log('  ' + w.map((n) => '-'.repeat(n)).join('  '));
  for (const r of rows) console.log('  ' + fmt(r));
}

const statHead = ['case', 'rules', 'samples x batch', 'p50 us', 'p99 us', 'mean us', 'decisions/s'];
const statRow = (name: string, rules: number, s: Stats): string[] => [
  name,
  rules.toLocaleString('en-US'),
  `${s.samples} x ${s.batch}`,
  us(s.p50),
  us(s.p99),
  us(s.mean),
  perSec(s.mean),
];

const anomalies: string[] = [];

/** Whether this file was transpiled with esbuild keepNames (tsx does this): closures get wrapped in __name(). */
const KEEP_NAMES = (() => {
  const make = () => {
    const inner = () => 1;
    return inner;
  };
  return make.toString().includes('__name');
})();

// ---------------------------------------------------------------------------------------------
// Deterministic data generation
// ---------------------------------------------------------------------------------------------

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'zeta', 'sigma', 'lambda', 'theta', 'rho', 'tau'];
const word = (rng: Rng): string => pick(rng, WORDS) + Math.floor(rng() * 100);

/** A concrete string matching `pattern` (`**` -> two dir segments, `*` -> a word). */
function instantiate(pattern: string, rng: Rng): string {
  return pattern.replace(/\*\*|\*/g, (m) => (m === '**' ? `${word(rng)}/${word(rng)}` : word(rng)));
}

const WORKSPACE = '/work/proj';
const CTX: EvaluationContext = { workspaceRoot: WORKSPACE, homeDir: '/home/dev' };

// ---------------------------------------------------------------------------------------------
// (a) 200-rule realistic policy over ~40 tools, non-shell calls
// ---------------------------------------------------------------------------------------------

type Kind = 'path' | 'url' | 'text';
interface ToolSpec {
  name: string;
  params: { name: string; kind: Kind; patterns: string[] }[];
}

const PATH_PATTERNS = [
  'src/**',
  'src/**/*.ts',
  'tests/**',
  'docs/*.md',
  '**/.env*',
  '**/*.pem',
  '/etc/**',
  '~/.ssh/**',
  'dist/**/*.map',
  'node_modules/**',
  '*.json',
  'scripts/*.sh',
];
const URL_PATTERNS = [
  'https://docs.python.org/*',
  'https://api.github.com/*',
  'https://*.example.com/*',
  'http://*',
  'https://registry.npmjs.org/*',
];
const textPatterns = (k: number): string[] => [
  `acme/*`,
  `*secret*`,
  `prod-*`,
  `*-rc${k % 7}`,
  `team-${k % 5}-*`,
  `*.internal`,
  `release-*`,
  `*urgent*`,
];

const REAL_TOOLS: ToolSpec[] = [
  { name: 'read_file', params: [{ name: 'path', kind: 'path', patterns: PATH_PATTERNS }] },
  { name: 'write_file', params: [{ name: 'path', kind: 'path', patterns: PATH_PATTERNS }] },
  { name: 'edit_file', params: [{ name: 'path', kind: 'path', patterns: PATH_PATTERNS }] },
  { name: 'list_files', params: [{ name: 'path', kind: 'path', patterns: PATH_PATTERNS }] },
  { name: 'fetch_url', params: [{ name: 'url', kind: 'url', patterns: URL_PATTERNS }] },
  ...(
    [
      ['web_search', 'query'],
      ['grep', 'pattern'],
      ['glob', 'pattern'],
      ['task', 'description'],
      ['todo_write', 'content'],
      ['notebook_edit', 'cell'],
      ['ask_user', 'question'],
      ['memory_read', 'key'],
      ['memory_write', 'key'],
      ['send_email', 'to'],
      ['calendar_create', 'title'],
      ['deploy_service', 'service'],
      ['image_generate', 'prompt'],
      ['mcp__github__create_issue', 'repo'],
      ['mcp__github__list_issues', 'repo'],
      ['mcp__github__create_pr', 'branch'],
      ['mcp__github__merge_pr', 'branch'],
      ['mcp__github__delete_branch', 'branch'],
      ['mcp__github__get_file', 'repo'],
      ['mcp__slack__post_message', 'channel'],
      ['mcp__slack__list_channels', 'team'],
      ['mcp__slack__delete_message', 'channel'],
      ['mcp__jira__create_ticket', 'project'],
      ['mcp__jira__transition', 'ticket'],
      ['mcp__jira__search', 'jql'],
      ['mcp__linear__create_issue', 'team'],
      ['mcp__linear__update_issue', 'issue'],
      ['mcp__postgres__query', 'sql'],
      ['mcp__postgres__execute', 'sql'],
      ['mcp__aws__s3_get', 'bucket'],
      ['mcp__aws__s3_put', 'bucket'],
      ['mcp__aws__ec2_terminate', 'instance'],
      ['mcp__k8s__get_pods', 'namespace'],
      ['mcp__k8s__delete_pod', 'namespace'],
      ['mcp__k8s__apply', 'manifest'],
    ] as const
  ).map(([name, p], k): ToolSpec => ({
    name,
    params: [
      { name: p, kind: 'text', patterns: textPatterns(k) },
      { name: 'note', kind: 'text', patterns: ['*todo*', 'ref-*'] },
    ],
  })),
];

function realisticPolicy(nRules: number, seed: number): PolicyInput {
  const rng = mulberry32(seed);
  const rules: RuleInput[] = [
    // Tool globs.
    { action: 'ask', tool: 'mcp__github__*' },
    { action: 'deny', tool: 'mcp__*__delete_*' },
    { action: 'ask', tool: 'mcp__aws__*' },
    { action: 'deny', tool: '*_admin' },
    { action: 'allow', tool: 'mcp__slack__*', params: { channel: 'eng-*' } },
    { action: 'deny', tool: 'mcp__*', params: { note: '*secret*' } },
    { action: 'allow', tool: 'mcp__jira__*' },
    { action: 'ask', tool: 'mcp__k8s__*', params: { namespace: 'prod-*' } },
    // Whole-tool rules.
    { action: 'allow', tool: 'read_file' },
    { action: 'allow', tool: 'list_files' },
    { action: 'allow', tool: 'web_search' },
    { action: 'allow', tool: 'grep' },
    { action: 'allow', tool: 'glob' },
    { action: 'ask', tool: 'deploy_service' },
    { action: 'deny', tool: 'mcp__aws__ec2_terminate' },
  ];
  const actions = ['allow', 'allow', 'allow', 'ask', 'ask', 'deny'] as const;
  let k = 0;
  while (rules.length < nRules) {
    const t = REAL_TOOLS[k % REAL_TOOLS.length]!;
    const p = t.params[Math.floor(k / REAL_TOOLS.length) % t.params.length]!;
    rules.push({
      id: `r${rules.length}`,
      action: pick(rng, actions),
      tool: t.name,
      params: { [p.name]: pick(rng, p.patterns) },
    });
    k++;
  }
  return { defaultAction: 'ask', rules };
}

/** Varied calls: most instantiate some rule's pattern (hit), the rest miss or use unknown tools (default). */
function realisticCalls(policy: PolicyInput, n: number, seed: number): ToolCall[] {
  const rng = mulberry32(seed);
  const rules = policy.rules ?? [];
  const calls: ToolCall[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng();
    if (r < 0.15) {
      calls.push({ tool: `unknown_tool_${i}`, params: { x: word(rng) } });
      continue;
    }
    const t = pick(rng, REAL_TOOLS);
    const params: Record<string, unknown> = {};
    for (const p of t.params) {
      if (rng() < 0.55) {
        const base = instantiate(pick(rng, p.patterns), rng);
        params[p.name] =
          p.kind === 'path' && !base.startsWith('/') && !base.startsWith('~') && rng() < 0.3
            ? `${WORKSPACE}/${base}`
            : base;
      } else {
        params[p.name] =
          p.kind === 'path'
            ? `lib/${word(rng)}/${word(rng)}.ts`
            : p.kind === 'url'
              ? `https://unknown.org/${word(rng)}`
              : `plain ${word(rng)}`;
      }
    }
    calls.push({ tool: t.name, params });
  }
  // Make sure a glob-tool-only name is in the mix too.
  calls.push(
    { tool: 'mcp__github__rerun_workflow', params: { repo: 'acme/api' } },
    { tool: 'billing_admin', params: {} },
  );
  void rules;
  return calls;
}

// ---------------------------------------------------------------------------------------------
// (b) shell commands
// ---------------------------------------------------------------------------------------------

const SHELL_RULES: RuleInput[] = [
  ...[
    'git status',
    'git status *',
    'git diff *',
    'git log *',
    'git add *',
    'git commit *',
    'npm test',
    'npm test *',
    'npm run *',
    'ls',
    'ls *',
    'cd *',
    'grep *',
    'cat *',
    'head *',
    'tail *',
    'tee *',
    'echo *',
    'pwd',
    'wc *',
    'find *',
    'node *',
  ].map((c): RuleInput => ({ action: 'allow', tool: 'bash', params: { command: c } })),
  ...['git push *', 'npm install *', 'npm publish *', 'docker *', 'curl *'].map((c): RuleInput => ({
    action: 'ask',
    tool: 'bash',
    params: { command: c },
  })),
  ...['rm -rf *', 'sudo *', 'git push --force *', 'chmod 777 *', 'dd *'].map((c): RuleInput => ({
    action: 'deny',
    tool: 'bash',
    params: { command: c },
  })),
];

const SHELL_TEMPLATES: ((i: number) => string)[] = [
  (i) => `git status && npm test | tee out-${i}.log`,
  (i) => `cd src-${i}; ls -la; grep -r foo${i} .`,
  (i) => `git diff HEAD~${i} && git log -n ${i} | head -20`,
  (i) => `npm run build:${i} || echo "failed ${i}"; ls dist`,
  (i) => `git add file${i}.ts && git commit -m "fix #${i}" && git push origin main`,
  (i) => `cat log${i}.txt | grep ERROR | wc -l`,
  (i) => `find . -name '*.ts' -newer m${i} | head -${i} | tee list.txt`,
  (i) => `echo start ${i}; npm install lodash@4.17.${i}; sudo reboot`,
  (i) => `pwd && ls -la /tmp/dir${i} && cat /tmp/dir${i}/x`,
  (i) => `curl -s https://example.com/${i} | head -5 | tee page${i}.html`,
];
const shellCall = (command: string): ToolCall => ({ tool: 'bash', params: { command } });

// ---------------------------------------------------------------------------------------------
// (c) synthetic policies for scaling
// ---------------------------------------------------------------------------------------------

function syntheticPolicy(n: number): PolicyInput {
  const rules: RuleInput[] = [];
  const acts = ['allow', 'ask', 'deny'] as const;
  for (let k = 0; k < n; k++) {
    const action = acts[k % 3]!;
    switch (k % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
        rules.push({ action, tool: `tool_${k}` });
        break;
      case 4:
      case 5:
        rules.push({ action, tool: `tool_${k}`, params: { arg: `v${k}-*` } });
        break;
      case 6:
        rules.push({ action, tool: `mcp__svc${k}__*` });
        break;
      case 7:
        rules.push({ action, tool: 'read_file', params: { path: `dir${k}/**` } });
        break;
      case 8:
        rules.push({ action, tool: 'write_file', params: { path: `out${k}/*.txt` } });
        break;
      case 9:
        rules.push({ action, tool: `tool_${k}`, params: { arg: `*-${k}`, mode: `m${k % 4}*` } });
        break;
    }
  }
  return { defaultAction: 'ask', rules };
}

/** Same calls for every size: some hit rules that exist only in the larger policies. */
const SCALING_CALLS: ToolCall[] = (() => {
  const calls: ToolCall[] = [];
  for (const k of [0, 3, 5, 9, 42, 99, 305, 999, 4003, 9999])
    calls.push({ tool: `tool_${k}`, params: { arg: `v${k}-x-${k}`, mode: 'm1z' } });
  for (const k of [6, 96, 906, 9006]) calls.push({ tool: `mcp__svc${k}__run`, params: {} });
  for (const k of [7, 97, 907, 9007]) calls.push({ tool: 'read_file', params: { path: `dir${k}/a/b.ts` } });
  for (const k of [8, 98, 908, 9008])
    calls.push({ tool: 'write_file', params: { path: `${WORKSPACE}/out${k}/r.txt` } });
  calls.push(
    { tool: 'unknown_tool', params: {} },
    { tool: 'read_file', params: { path: 'src/index.ts' } },
    { tool: 'tool_12345', params: { arg: 'nope' } },
  );
  return calls;
})();

// ---------------------------------------------------------------------------------------------
// (d) shared allow/deny subset and its Cedar translation
// ---------------------------------------------------------------------------------------------

// Tool names that are not built-in tools (so every param is a `text` param in Gatehouse) and
// param names that are not `path`/`url`/`command`.
const SHARED_TOOLS = REAL_TOOLS.filter((t) => t.params.every((p) => p.kind === 'text')).map((t) => ({
  name: t.name,
  params: t.params.map((p) => p.name),
}));
// Pattern characters restricted to [a-z0-9_./ -] plus `*`, so `*` is the only special character for
// both engines. No lone `*` pattern (would make "missing param" vs "empty string" matter).
const SHARED_TEXT_PATTERNS = [
  'acme/*',
  '*secret*',
  'prod-*',
  '*.internal',
  'release-*-rc',
  '*urgent*',
  'team-*-eng',
  'ref-*',
  '*todo*',
  '*/admin/*',
];

function sharedPolicy(n: number, seed: number): PolicyInput {
  const rng = mulberry32(seed);
  const rules: RuleInput[] = [
    { action: 'allow', tool: 'mcp__github__*', params: { repo: 'acme/*' } },
    { action: 'deny', tool: 'mcp__*__delete_*' },
    { action: 'deny', tool: 'mcp__*', params: { note: '*secret*' } },
    { action: 'allow', tool: 'mcp__jira__*' },
    { action: 'allow', tool: 'web_search' },
    { action: 'deny', tool: '*_admin' },
  ];
  // Extra synthetic tools for big policies, so the tool-name space grows with the rule count.
  const tools = [...SHARED_TOOLS];
  for (let k = 0; tools.length < Math.max(SHARED_TOOLS.length, n / 5); k++)
    tools.push({ name: `svc${k}_action`, params: ['target', 'note'] });
  let k = 0;
  while (rules.length < n) {
    const t = tools[k % tools.length]!;
    const [p0, p1] = t.params as [string, string];
    const action = rng() < 0.65 ? 'allow' : 'deny';
    const r = rng();
    if (r < 0.15) rules.push({ action, tool: t.name });
    else if (r < 0.85)
      rules.push({ action, tool: t.name, params: { [pick(rng, t.params)]: pick(rng, SHARED_TEXT_PATTERNS) } });
    else if (r < 0.93)
      rules.push({
        action,
        tool: t.name,
        params: { [p0]: pick(rng, SHARED_TEXT_PATTERNS), [p1]: pick(rng, SHARED_TEXT_PATTERNS) },
      });
    else
      rules.push({
        action,
        tool: t.name.replace(/_[a-z0-9]+$/, '_*'),
        params: { [p0]: pick(rng, SHARED_TEXT_PATTERNS) },
      });
    k++;
  }
  return { defaultAction: 'deny', rules };
}

function sharedCalls(policy: PolicyInput, n: number, seed: number): ToolCall[] {
  const rng = mulberry32(seed);
  const rules = policy.rules ?? [];
  const calls: ToolCall[] = [];
  for (let i = 0; i < n; i++) {
    if (rng() < 0.1) {
      calls.push({ tool: `unlisted_tool_${i}`, params: { target: word(rng) } });
      continue;
    }
    // Take a rule and build a call that satisfies it, then perturb some params to produce misses.
    const r = pick(rng, rules);
    const tool = r.tool.includes('*') ? instantiate(r.tool, rng).replace(/[^a-z0-9_]/g, '_') : r.tool;
    const params: Record<string, unknown> = {};
    for (const [name, pat] of Object.entries(r.params ?? {}))
      params[name] = rng() < 0.75 ? instantiate(pat, rng) : `other ${word(rng)}`;
    if (rng() < 0.5) params.note = rng() < 0.3 ? `has secret ${word(rng)}` : `fyi ${word(rng)}`;
    calls.push({ tool, params });
  }
  return calls;
}

const cedarStr = (s: string): string => {
  if (/["\\\n\r\t]/.test(s)) throw new Error(`benchmark bug: unsupported character in ${JSON.stringify(s)}`);
  return `"${s}"`;
};
/** Gatehouse `*` glob -> Cedar expression on `expr`: `==` when there is no `*`, else `like` (Cedar `*` = any chars). */
const cedarMatch = (expr: string, glob: string): string =>
  glob.includes('*') ? `${expr} like ${cedarStr(glob)}` : `${expr} == ${cedarStr(glob)}`;

/** One Cedar policy per Gatehouse rule; tool name and params live on the resource entity. */
function toCedar(policy: PolicyInput): Record<string, string> {
  const out: Record<string, string> = {};
  (policy.rules ?? []).forEach((r, i) => {
    if (r.action === 'ask') throw new Error('ask has no Cedar equivalent');
    const conds = [cedarMatch('resource.tool', r.tool)];
    for (const [p, pat] of Object.entries(r.params ?? {})) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) throw new Error(`benchmark bug: param name ${p}`);
      conds.push(`resource.params has ${p}`, cedarMatch(`resource.params.${p}`, pat));
    }
    out[`rule${i}`] =
      `${r.action === 'allow' ? 'permit' : 'forbid'}(principal, action, resource) when { ${conds.join(' && ')} };`;
  });
  return out;
}

type CedarRequest = Parameters<typeof cedar.statefulIsAuthorized>[0];
const cedarRequest = (psetId: string, call: ToolCall): CedarRequest => ({
  principal: { type: 'Gatehouse::Agent', id: call.agent ?? 'main' },
  action: { type: 'Gatehouse::Action', id: 'call' },
  resource: { type: 'Gatehouse::Call', id: 'c' },
  context: {},
  preparsedPolicySetId: psetId,
  entities: [
    {
      uid: { type: 'Gatehouse::Call', id: 'c' },
      attrs: { tool: call.tool, params: call.params as Record<string, string> },
      parents: [],
    },
  ],
});

function cedarDecide(req: CedarRequest): 'allow' | 'deny' {
  const a = cedar.statefulIsAuthorized(req);
  if (a.type !== 'success') throw new Error(`Cedar failure: ${JSON.stringify(a.errors)}`);
  if (a.response.diagnostics.errors.length)
    throw new Error(`Cedar evaluation errors: ${JSON.stringify(a.response.diagnostics.errors.slice(0, 3))}`);
  return a.response.decision;
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------

const t00 = process.hrtime.bigint();
console.log('Gatehouse policy benchmark');
console.log(
  `  node ${process.version}, ${process.platform}/${process.arch}, cedar-wasm ${cedar.getCedarSDKVersion()} (Cedar ${cedar.getCedarVersion()})`,
);
console.log(
  `  Method: per case, warm-up first (${WARMUP_MS} ms), then samples for ~${BUDGET_MS} ms (min ${MIN_SAMPLES} samples). A sample`,
);
console.log(
  `  times a batch of ${BATCH} consecutive calls with one process.hrtime.bigint() pair, subtracts the measured timer`,
);
console.log(
  `  overhead (${TIMER_NS} ns per pair, median of 20,001 back-to-back pairs) and divides by ${BATCH}. p50/p99 are over these`,
);
console.log(
  `  per-batch averages (p99 = the 99th-percentile batch, which smooths single-call outliers; p50 is close to the mean`,
);
console.log(
  `  of the rotating call mix). decisions/s = calls / total measured time. Only Cedar (>= ~40 us per call) is timed`,
);
console.log(
  `  call by call (batch 1, same subtraction). Calls rotate through a fixed, pre-built set of ToolCall objects;`,
);
console.log(`  policies go through compilePolicy once, before timing.`);
if (KEEP_NAMES) {
  console.log(
    '  Note: running under tsx, which transpiles with esbuild keepNames: every function created at run time goes',
  );
  console.log(
    '  through a __name() helper (an Object.defineProperty call). Engine code that creates closures per call pays',
  );
  console.log('  for it (see bench/README.md for running the same file without keepNames).');
}
console.log(`  evaluate() gets ctx = ${JSON.stringify(CTX)}.`);
console.log('');

// (a) -------------------------------------------------------------------------------------------
const polA = realisticPolicy(200, 1);
const toolsA = new Set((polA.rules ?? []).map((r) => r.tool));
const globToolsA = [...toolsA].filter((t) => t.includes('*')).length;
const compiledA = compilePolicy(polA);
const callsA = realisticCalls(polA, 256, 2);
const histA: Record<string, number> = {};
for (const c of callsA) {
  const d = evaluate(compiledA, c, CTX);
  const key = `${d.action}/${d.reason}`;
  histA[key] = (histA[key] ?? 0) + 1;
}
// A few calls whose decision follows unambiguously from the stated semantics.
const sanityA: [ToolCall, string, string][] = [
  [
    { tool: 'mcp__github__delete_branch', params: { branch: 'feature-x' } },
    'deny',
    'mcp__*__delete_* deny beats mcp__github__* ask',
  ],
  [{ tool: 'mcp__aws__ec2_terminate', params: { instance: 'i-1' } }, 'deny', 'exact deny'],
  [{ tool: 'billing_admin', params: {} }, 'deny', '*_admin deny'],
  [{ tool: 'totally_unknown', params: {} }, 'ask', 'defaultAction ask'],
  [
    { tool: 'mcp__jira__search', params: { jql: 'x', note: 'my secret note' } },
    'deny',
    'mcp__* note=*secret* deny beats jira allow',
  ],
];
for (const [call, want, why] of sanityA) {
  const got = evaluate(compiledA, call, CTX).action;
  if (got !== want) anomalies.push(`(a) ${JSON.stringify(call)}: expected ${want} (${why}), got ${got}`);
}
const nA = callsA.length;
const sA = measure((i) => consume(evaluate(compiledA, callsA[i % nA], CTX)));
// Informational: passing the raw (uncompiled) policy object each time.
const sARaw = measure((i) => consume(evaluate(polA as never, callsA[i % nA], CTX)), {
  budgetMs: Math.min(BUDGET_MS, 600),
});

console.log(
  `(a) 200-rule policy: ${toolsA.size - globToolsA} tool names + ${globToolsA} tool globs; text, path and url params; ${nA} rotating non-shell calls`,
);
console.log(
  `    decision mix of the call set: ${Object.entries(histA)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
table(statHead, [
  statRow('compiled policy', 200, sA),
  statRow('raw policy object (no compilePolicy; info)', 200, sARaw),
]);
console.log('');

// (b) -------------------------------------------------------------------------------------------
const polB: PolicyInput = { defaultAction: 'ask', rules: SHELL_RULES };
const compiledB = compilePolicy(polB);
const warmCmds = Array.from({ length: 50 }, (_, k) =>
  shellCall(SHELL_TEMPLATES[k % SHELL_TEMPLATES.length]!(Math.floor(k / SHELL_TEMPLATES.length))),
);
const histB: Record<string, number> = {};
let partsB = 0;
for (const c of warmCmds) {
  const d = evaluate(compiledB, c, CTX);
  histB[d.action] = (histB[d.action] ?? 0) + 1;
  partsB += d.parts?.length ?? 0;
}
const sanityB: [string, string][] = [
  ['git status && npm test | tee out.log', 'allow'],
  ['cd src; ls -la; grep -r foo .', 'allow'],
  ['echo hi; sudo reboot', 'deny'],
  ['git add . && git commit -m "x" && git push origin main', 'ask'],
  ['ls && frobnicate --all', 'ask'],
];
for (const [cmd, want] of sanityB) {
  const d = evaluate(compiledB, shellCall(cmd), CTX);
  if (d.action !== want)
    anomalies.push(`(b) bash ${JSON.stringify(cmd)}: expected ${want}, got ${d.action} (${d.explanation})`);
}
// Cold: every command string is new (template + counter), pre-generated outside the timed loop.
const COLD_N = QUICK ? 40_000 : 200_000;
const coldCmds: ToolCall[] = new Array(COLD_N);
for (let k = 0; k < COLD_N; k++) coldCmds[k] = shellCall(SHELL_TEMPLATES[k % SHELL_TEMPLATES.length]!(100_000 + k));
const sBCold = measure((i) => consume(evaluate(compiledB, coldCmds[i], CTX)), { maxCalls: COLD_N });
if (sBCold.lastIndex >= COLD_N) throw new Error('cold command pool exhausted');
const sBWarm = measure((i) => consume(evaluate(compiledB, warmCmds[i % 50], CTX)));
console.log(`(b) 3-part shell commands, ${SHELL_RULES.length} command rules (tool "bash")`);
console.log(
  `    warm set of 50: ${Object.entries(histB)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}; ${(partsB / 50).toFixed(1)} parts per command on average`,
);
console.log(
  `    cold: ${(sBCold.lastIndex + 1).toLocaleString('en-US')} distinct command strings used (warm-up + samples), none repeated`,
);
table(statHead, [
  statRow('cold (unique commands, full parse)', SHELL_RULES.length, sBCold),
  statRow('warm (50 repeated commands)', SHELL_RULES.length, sBWarm),
]);
console.log('');

// (c) -------------------------------------------------------------------------------------------
const scaleRows: string[][] = [];
const scaleP50: number[] = [];
for (const n of [10, 100, 1_000, 10_000]) {
  const pol = syntheticPolicy(n);
  const compileMs = timeMs(() => void compilePolicy(pol), n >= 10_000 ? 5 : n >= 1_000 ? 15 : 50);
  const compiled = compilePolicy(pol);
  const calls = SCALING_CALLS;
  let hits = 0;
  for (const c of calls) if (evaluate(compiled, c, CTX).reason !== 'default_action') hits++;
  const s = measure((i) => consume(evaluate(compiled, calls[i % calls.length], CTX)), {
    budgetMs: Math.min(BUDGET_MS, 1000),
  });
  scaleP50.push(s.p50);
  scaleRows.push([
    n.toLocaleString('en-US'),
    `${hits}/${calls.length}`,
    us(s.p50),
    us(s.p99),
    perSec(s.mean),
    `x${(s.p50 / scaleP50[0]!).toFixed(2)}`,
    compileMs.toFixed(2),
  ]);
}
console.log(
  `(c) scaling: synthetic policies (exact tools, mcp__svcN__* globs, text and path params), ${SCALING_CALLS.length} fixed calls`,
);
table(
  ['rules', 'calls hit a rule', 'p50 us', 'p99 us', 'decisions/s', 'p50 vs 10', 'compilePolicy ms (median)'],
  scaleRows,
);
console.log('');

// (d) -------------------------------------------------------------------------------------------
const cmpRows: string[][] = [];
// Cedar's fixed per-call cost (request/entity conversion across the wasm boundary, response building):
// the same kind of request against an empty preparsed policy set.
cedar.preparsePolicySet('gatehouse-empty', { staticPolicies: {} });
const floorReqs = sharedCalls(sharedPolicy(200, 210), 256, 220).map((c) => cedarRequest('gatehouse-empty', c));
const sCFloor = measure(
  (i) => {
    const a = cedar.statefulIsAuthorized(floorReqs[i % floorReqs.length]!);
    sink = (sink + (a.type === 'success' ? a.response.decision.length : 1)) | 0;
  },
  { budgetMs: Math.min(BUDGET_MS, 800), batch: 1 },
);
const ratios: Record<number, number> = {};
for (const n of [200, 1_000]) {
  const pol = sharedPolicy(n, 10 + n);
  const compiled = compilePolicy(pol);
  const calls = sharedCalls(pol, 256, 20 + n);
  const cedarPolicies = toCedar(pol);
  const psetId = `gatehouse-${n}`;
  const parsed = cedar.preparsePolicySet(psetId, { staticPolicies: cedarPolicies });
  if (parsed.type !== 'success')
    throw new Error(`Cedar could not parse the translated policy set: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
  const reqs = calls.map((c) => cedarRequest(psetId, c));

  // Equivalence check on every call of the comparison set.
  const mismatches: string[] = [];
  const mix = { allow: 0, denyRule: 0, denyDefault: 0 };
  calls.forEach((c, i) => {
    const g = evaluate(compiled, c, CTX);
    const cd = cedarDecide(reqs[i]!);
    if (g.action === 'allow') mix.allow++;
    else if (g.reason === 'default_action') mix.denyDefault++;
    else mix.denyRule++;
    const gAsCedar = g.action === 'allow' ? 'allow' : g.action === 'deny' ? 'deny' : `ask(!)`;
    if (gAsCedar !== cd)
      mismatches.push(
        `call ${JSON.stringify(c)}: Gatehouse ${g.action} (${g.reason}${g.rule ? ` rule #${g.rule.index} ${JSON.stringify((pol.rules ?? [])[g.rule.index])}` : ''}), Cedar ${cd} (${JSON.stringify(cedar.statefulIsAuthorized(reqs[i]!))})`,
      );
  });
  if (mismatches.length) {
    console.error(
      `\n!!! (d) ${n}-rule shared subset: Gatehouse and Cedar DISAGREE on ${mismatches.length}/${calls.length} calls:`,
    );
    for (const m of mismatches.slice(0, 10)) console.error('  - ' + m);
    console.error('Aborting: the comparison is only meaningful when both engines decide identically.');
    process.exit(1);
  }

  const nc = calls.length;
  const sG = measure((i) => consume(evaluate(compiled, calls[i % nc], CTX)));
  const sC = measure(
    (i) => {
      const a = cedar.statefulIsAuthorized(reqs[i % nc]!);
      sink = (sink + (a.type === 'success' ? a.response.decision.length : 1)) | 0;
    },
    { batch: 1 },
  );
  ratios[n] = sC.p50 / sG.p50;
  cmpRows.push([
    `${n.toLocaleString('en-US')}`,
    `${nc} (allow ${mix.allow}, deny by rule ${mix.denyRule}, deny by default ${mix.denyDefault})`,
    us(sG.p50),
    us(sC.p50),
    `${ratios[n].toFixed(1)}x`,
    perSec(sG.mean),
    perSec(sC.mean),
    us(sG.p99),
    us(sC.p99),
  ]);
}
console.log(
  '(d) Gatehouse vs Cedar (cedar-wasm statefulIsAuthorized on a preparsePolicySet-cached policy set; resource entity',
);
console.log(
  '    with attrs {tool, params} passed per call). Same allow/deny-only policies, defaultAction deny; decisions agree',
);
console.log('    on every call of each comparison set (checked above).');
console.log(`    Cedar per-call floor (same requests, empty policy set): p50 ${us(sCFloor.p50)} us.`);
table(
  [
    'rules',
    'comparison calls',
    'Gatehouse p50 us',
    'Cedar p50 us',
    'Cedar/Gatehouse',
    'Gatehouse dec/s',
    'Cedar dec/s',
    'Gatehouse p99 us',
    'Cedar p99 us',
  ],
  cmpRows,
);
console.log('');

// Summary ---------------------------------------------------------------------------------------
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
console.log('Summary');
console.log(
  `  ${verdict(sA.p50 <= 5_000)}  (a) 200-rule policy, non-shell calls: p50 ${us(sA.p50)} us (target <= 5 us)`,
);
console.log(
  `  ${verdict(sBCold.p50 <= 40_000)}  (b) 3-part shell commands, cold parse: p50 ${us(sBCold.p50)} us (target <= 40 us); warm p50 ${us(sBWarm.p50)} us${KEEP_NAMES ? ' [tsx keepNames on]' : ' [keepNames off]'}`,
);
console.log(
  `  info  (c) scaling p50: ${[10, 100, 1000, 10000].map((n, i) => `${n.toLocaleString('en-US')} rules ${us(scaleP50[i]!)} us`).join(', ')}`,
);
console.log(
  `  info  (d) Cedar/Gatehouse p50 ratio: 200 rules ${ratios[200]!.toFixed(1)}x, 1,000 rules ${ratios[1000]!.toFixed(1)}x`,
);
if (anomalies.length) {
  console.log('');
  console.log('Decisions that look wrong under the documented semantics:');
  for (const a of anomalies) console.log('  ! ' + a);
}
console.log(`\n(total run time ${(Number(process.hrtime.bigint() - t00) / 1e9).toFixed(1)} s; sink ${sink})`);
