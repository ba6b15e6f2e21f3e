// File and host rules follow the shell: a deny or ask rule on the path of a file tool also
// applies to the shell parts that read or write that path (redirections, the readers and writers
// table), as if the part had called the tool: reading is read_file, writing is write_file and
// edit_file; a deny or ask rule on fetch_url's URL applies to the URLs and hosts a part reaches
// (the host-taking programs table). The rule keeps its agent and `when`. A file or address the
// engine cannot name (an expansion, an unknown directory, a glob) may match, like any other value
// known only at run time (may mode).
import type { CompiledPolicy, CompiledRule } from './compile';
import { paramKindOf } from './kinds';
import { rulesFit, ruleMatches, type PreparedCall, type Unit } from './match';
import { shapeOf, type PathShape } from './path-shape';
import { fileAccessesOf } from './programs/files';
import { remotesOf } from './programs/remotes';
import { INDEX_FROM, PathIndex } from './rule-index';
import { START } from './shell/dirs';
import type { FileAccess, ShellPart } from './shell/types';

export type FollowAction = 'deny' | 'ask';

export interface Followed {
  rule: CompiledRule;
  /** What the part does that the rule is about: `reads /ws/.env`. */
  what: string;
}

const READERS = ['read_file'] as const;
const WRITERS = ['write_file', 'edit_file'] as const;
const FILE_TOOLS: readonly string[] = [...READERS, ...WRITERS];

interface FileRules {
  rules: readonly CompiledRule[];
  index?: Map<string, PathIndex>;
}

/** For one action: the rules of each file tool that constrain its path, and of fetch_url its URL. */
export interface Plan {
  byTool: readonly FileRules[];
  urls: FileRules;
  /** No rule to follow at all (the common case), decided once per policy. */
  none: boolean;
}

// Per compiled policy, built once: these lookups sit on the decision path of every part.
const plans = new WeakMap<CompiledPolicy, Record<FollowAction, Plan>>();

/** What follows the shell for each action, built once per compiled policy. */
export function followPlans(compiled: CompiledPolicy): Record<FollowAction, Plan> {
  let both = plans.get(compiled);
  if (!both) {
    const make = (a: FollowAction): Plan => {
      const byTool = FILE_TOOLS.map((tool) => constrainingRules(compiled, tool, a));
      const urls = constrainingRules(compiled, 'fetch_url', a);
      return { byTool, urls, none: urls.rules.length === 0 && byTool.every((r) => r.rules.length === 0) };
    };
    both = { deny: make('deny'), ask: make('ask') };
    plans.set(compiled, both);
  }
  return both;
}

/** The tool's rules of `action` that constrain its path (file tools) or URL (fetch_url). */
function constrainingRules(compiled: CompiledPolicy, tool: string, action: FollowAction): FileRules {
  const kind = tool === 'fetch_url' ? 'url' : 'path';
  const constrains = (rule: CompiledRule) =>
    rule.params.some((p) => paramKindOf(tool, p.key) === kind) ||
    rule.conditions.some((c) => paramKindOf(tool, c.key) === kind);
  return { rules: compiled.candidates(tool)[action].filter(constrains) };
}

/** The files a part touches: its redirections and the file operands of its innermost command. */
export function accessesOf(part: ShellPart): readonly FileAccess[] {
  const operands = fileAccessesOf(part.views[part.views.length - 1]!, part.openArgs);
  const redirects = part.redirects ?? [];
  if (redirects.length === 0) return operands;
  if (operands.length === 0) return redirects;
  return [...redirects, ...operands];
}

/**
 * The first file or host rule of `action` that applies to a shell part, if any. Check
 * `prep.work.exhausted` after: then the answer is unknown.
 */
export function followRules(plan: Plan, prep: PreparedCall, unit: Unit): Followed | undefined {
  if (!unit.part || plan.none) return undefined;
  const file = followFileRules(plan, prep, unit.part);
  if (file || prep.work.exhausted) return file;
  return followHostRules(plan, prep, unit.part);
}

/** Host rules follow the shell: fetch_url rules on the URL apply to the URLs and hosts a part reaches. */
function followHostRules(plan: Plan, prep: PreparedCall, part: ShellPart): Followed | undefined {
  const rules = plan.urls;
  if (rules.rules.length === 0) return undefined;
  for (const remote of remotesOf(part.views[part.views.length - 1]!, part.openArgs)) {
    const urls = remote.urls.length === 0 ? [undefined] : remote.urls;
    for (const url of urls) {
      if (!rulesFit(prep, rules.rules.length)) return undefined;
      const urlPrep: PreparedCall = {
        call: { tool: 'fetch_url', params: { url: url ?? remote.word.value }, agent: prep.call.agent },
        agent: prep.agent,
        kindOf: (param) => paramKindOf('fetch_url', param),
        paths: prep.paths,
        work: prep.work,
      };
      if (url === undefined) urlPrep.unknown = 'url';
      for (const rule of rules.rules) {
        if (ruleMatches(rule, urlPrep, {}, 'may')) return { rule, what: remote.what };
        if (prep.work.exhausted) return undefined;
      }
    }
  }
  return undefined;
}

function followFileRules(plan: Plan, prep: PreparedCall, part: ShellPart): Followed | undefined {
  const byTool = plan.byTool;
  if (byTool.every((r) => r.rules.length === 0)) return undefined;
  const accesses = accessesOf(part);
  for (const access of accesses) {
    for (const tool of access.mode === 'read' ? READERS : WRITERS) {
      const fileRules = byTool[FILE_TOOLS.indexOf(tool)]!;
      if (fileRules.rules.length === 0) continue;
      for (const dir of part.dirs ?? START) {
        const shape = shapeOf(access, dir, prep.start ?? prep.paths.root, prep.paths, part.dotglob === true);
        const hit = firstMatch(fileRules, tool, shape, prep);
        if (prep.work.exhausted) return undefined;
        if (hit) return { rule: hit, what: describe(access, shape) };
      }
    }
  }
  return undefined;
}

function firstMatch(
  fileRules: FileRules,
  tool: string,
  shape: PathShape,
  prep: PreparedCall,
): CompiledRule | undefined {
  const exact = shape.exact;
  const rules =
    exact !== undefined && fileRules.rules.length >= INDEX_FROM
      ? indexOf(fileRules, prep).candidates(exact)
      : fileRules.rules;
  if (!rulesFit(prep, rules.length)) return undefined;
  const filePrep: PreparedCall = {
    call: { tool, params: { path: exact ?? '(a file only known at run time)' }, agent: prep.call.agent },
    agent: prep.agent,
    kindOf: (param) => paramKindOf(tool, param),
    paths: prep.paths,
    work: prep.work,
  };
  if (exact === undefined) filePrep.pathShape = shape;
  for (const rule of rules) {
    if (ruleMatches(rule, filePrep, {}, 'may')) return rule;
    if (prep.work.exhausted) return undefined;
  }
  return undefined;
}

function indexOf(fileRules: FileRules, prep: PreparedCall): PathIndex {
  fileRules.index ??= new Map();
  let index = fileRules.index.get(prep.paths.key);
  if (!index) {
    if (fileRules.index.size > 16) fileRules.index.clear();
    fileRules.index.set(prep.paths.key, (index = new PathIndex(fileRules.rules, 'path', prep.paths)));
  }
  return index;
}

function describe(access: FileAccess, shape: PathShape): string {
  const verb = access.mode === 'read' ? 'reads' : 'writes';
  if (access.recursive && !access.word.dynamic) return `${verb} ${access.word.value} and everything below it`;
  if (shape.exact !== undefined) return `${verb} ${shape.exact}`;
  return `${verb} ${access.word.value}, a file it cannot name before it runs`;
}
