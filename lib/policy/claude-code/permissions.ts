// Claude Code's `settings.json` permissions (`allow` / `ask` / `deny` rule strings such as
// `Bash(git push:*)`, `Read(./.env)`, `Edit(src/**)`, `WebFetch(domain:example.com)`,
// `mcp__server__tool`) as Gatehouse rules with the same meaning. Where an exact translation does
// not exist, a deny or ask rule may come out wider (fail safe), an allow rule never: such entries
// are named instead, and nothing is imported until every entry converts.
import { z } from 'zod';
import { compilePolicy } from '../compile';
import { PolicyValidationError, type PolicyIssue } from '../errors';
import { BUILTIN_RISKS } from '../kinds';
import { escapePathGlob } from '../paths';
import type { Action, Policy, Rule } from '../types';

const RuleList = z.array(z.string().max(10_000, 'a rule may be at most 10,000 characters')).max(10_000).optional();

export const ClaudeCodeSettingsSchema = z
  .object({
    permissions: z
      .object({
        allow: RuleList,
        ask: RuleList,
        deny: RuleList,
        defaultMode: z.string().optional(),
        additionalDirectories: z.array(z.string().min(1)).max(1000).optional(),
      })
      .passthrough(),
  })
  .passthrough();

export interface ClaudeCodeImportOptions {
  /** Give every converted rule this agent (e.g. `claude-code`); by default the rules govern every agent. */
  agent?: string;
}

/** The tools each Claude Code tool's rules govern, after mapClaudeCodeCall. */
const FILE_TOOLS: Record<string, string[]> = {
  Read: ['read_file', 'list_files'],
  Edit: ['write_file', 'edit_file'],
  Write: ['write_file'],
  MultiEdit: ['edit_file'],
  NotebookEdit: ['edit_file'],
  // Grep reads through read_file, Glob and LS list through list_files: an allow rule on them would
  // also allow Read (or each other), so only deny and ask rules convert.
  Grep: ['read_file'],
  Glob: ['list_files'],
  LS: ['list_files'],
};
const SHARED_TOOLS = new Set(['Grep', 'Glob', 'LS']);

class Unconvertible extends Error {}

/** `Tool` or `Tool(specifier)`. */
function splitEntry(entry: string): { tool: string; spec?: string } {
  const text = entry.trim();
  const open = text.indexOf('(');
  if (open === -1) {
    if (!/^[A-Za-z][\w-]*$/.test(text)) throw new Unconvertible('is not a tool name or Tool(specifier)');
    return { tool: text };
  }
  if (!text.endsWith(')')) throw new Unconvertible('has an opening parenthesis but does not end with one');
  const tool = text.slice(0, open);
  if (!/^[A-Za-z][\w-]*$/.test(tool)) throw new Unconvertible('does not start with a tool name');
  const spec = text.slice(open + 1, -1).trim();
  // `Tool(*)` is the whole tool; an empty `Tool()` says nothing, and must not become "everything".
  if (spec === '') throw new Unconvertible('has an empty specifier');
  return spec === '*' ? { tool } : { tool, spec };
}

/**
 * A Bash specifier as a Gatehouse command pattern. `:*` (prefix) is read by the engine itself;
 * a lone `*` word matches any words in Claude Code, so `**` in the middle; a `*` glued to the
 * last word (`npm run test*`) may run on past spaces: that word, then any words. `*` is Claude
 * Code's only wildcard: in an allow rule the engine's other globs (`?`, `[...]`) are escaped, so
 * `curl https://x/v1?page=1` allows that URL only (a deny or ask rule may keep them: wider).
 */
function commandPattern(spec: string, action: Action): string {
  const literal = (text: string) => (action === 'allow' ? text.replace(/[?[]/g, '\\$&') : text);
  if (spec.endsWith(':*')) {
    if (spec.slice(0, -2).includes('*')) throw new Unconvertible('mixes :* with other wildcards');
    return `${literal(spec.slice(0, -2))}:*`;
  }
  const words = spec.split(/\s+/).filter(Boolean);
  return words
    .map((word, i) => {
      const last = i === words.length - 1;
      if (word === '*') return last ? '*' : '**';
      if (!word.includes('*')) return literal(word);
      if (!last) throw new Unconvertible('has a * inside a word that is not the last one (no exact translation)');
      return word.endsWith('*') ? `${literal(word)} **` : literal(word);
    })
    .join(' ');
}

/**
 * A Read/Edit path specifier (gitignore style) as a Gatehouse path pattern: `//abs` is absolute,
 * `~/` the home, `/x` and `./x` and `x` relative to the project (the workspace root). A pattern
 * without a slash matches at any depth in gitignore: deny and ask rules say so (`**` + `/x`), an
 * allow rule keeps to the project's top level (narrower, never wider).
 */
function pathPattern(spec: string, action: Action): string {
  let p = spec;
  if (p.startsWith('//')) p = p.slice(1);
  else if (p.startsWith('~/') || p === '~') return p.endsWith('/') ? `${p}**` : p;
  else if (p.startsWith('/')) p = p.slice(1);
  else if (p.startsWith('./')) p = p.slice(2);
  else if (action !== 'allow' && !p.replace(/\/$/, '').includes('/') && !['.', '..'].includes(p.replace(/\/$/, ''))) {
    // `**/..` would collapse to the project itself when resolved: `.` and `..` name one place.
    p = `**/${p}`;
  }
  if (p.endsWith('/')) p = `${p}**`;
  if (p === '') throw new Unconvertible('names no path');
  return p;
}

function domainRules(spec: string, action: Action): Rule[] {
  const match = /^domain:(.+)$/.exec(spec);
  if (!match) throw new Unconvertible('is a WebFetch rule other than domain:<host>');
  const host = match[1]!.trim().toLowerCase();
  if (!/^(\*\.)?[a-z0-9.-]+$/.test(host)) throw new Unconvertible('has a domain that is not a host name');
  // Gatehouse's host match also covers subdomains: right for deny and ask, too wide for allow.
  if (action !== 'allow') return [{ action, tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: host }] }];
  return ['https', 'http'].map((scheme) => ({ action, tool: 'fetch_url', params: { url: `${scheme}://${host}/**` } }));
}

function mcpTool(tool: string, spec: string | undefined): Rule['tool'] {
  if (spec !== undefined) throw new Unconvertible('MCP rules take no specifier');
  const parts = tool.split('__');
  if (parts.length === 2 && parts[1]) return `${tool}__*`;
  if (parts.length === 3 && parts[1] && parts[2]) return tool;
  throw new Unconvertible('is not mcp__server or mcp__server__tool');
}

/** The Gatehouse rules one Claude Code rule string means. */
export function convertRule(entry: string, action: Action): Rule[] {
  const { tool, spec } = splitEntry(entry.endsWith('__*') && entry.startsWith('mcp__') ? entry.slice(0, -3) : entry);
  if (tool.startsWith('mcp__')) return [{ action, tool: mcpTool(tool, spec) }];
  if (tool === 'Bash')
    return [
      spec === undefined
        ? { action, tool: 'bash' }
        : { action, tool: 'bash', params: { command: commandPattern(spec, action) } },
    ];
  if (tool === 'WebFetch') return spec === undefined ? [{ action, tool: 'fetch_url' }] : domainRules(spec, action);
  const fileTools = Object.hasOwn(FILE_TOOLS, tool) ? FILE_TOOLS[tool]! : undefined;
  if (fileTools) {
    if (action === 'allow' && SHARED_TOOLS.has(tool)) {
      throw new Unconvertible(
        `allows ${tool} only, and Gatehouse sees ${tool} as ${fileTools.join('/')}: write a Read(...) rule`,
      );
    }
    const path = spec === undefined ? undefined : pathPattern(spec, action);
    return fileTools.map((t) => (path === undefined ? { action, tool: t } : { action, tool: t, params: { path } }));
  }
  if (spec !== undefined) throw new Unconvertible(`is a ${tool} rule with a specifier, which Gatehouse cannot match`);
  // Claude Code has no tool `bash` or `read_file` (its names are `Bash`, `Read`): such an allow
  // entry allows nothing there, and must not allow a Gatehouse tool of that name here.
  if (action === 'allow' && Object.hasOwn(BUILTIN_RISKS, tool))
    throw new Unconvertible(`names no Claude Code tool (${tool} is Gatehouse's name): write the Claude Code rule`);
  return [{ action, tool }];
}

/** Rules Claude Code's mode adds: reads (and with acceptEdits, edits) inside the working directories. */
function modeRules(mode: string | undefined, dirs: string[]): { rules: Rule[]; defaultAction: Action } {
  if (mode !== undefined && !['default', 'acceptEdits', 'dontAsk'].includes(mode)) {
    throw new Unconvertible(`"${mode}" is a mode of a session, not a rule: remove defaultMode to import`);
  }
  // additionalDirectories are plain paths (absolute, `~/`, or relative to the project), not
  // patterns: a glob character in one (`app/[id]`) is literal.
  const roots = ['**', ...dirs.map((d) => `${escapePathGlob(d.replace(/\/+$/, ''))}/**`)];
  const tools =
    mode === 'acceptEdits' ? ['read_file', 'list_files', 'write_file', 'edit_file'] : ['read_file', 'list_files'];
  const rules = tools.flatMap((tool) =>
    roots.map((path): Rule => ({
      action: 'allow',
      tool,
      params: { path },
      description: "Claude Code's default: inside the working directories",
    })),
  );
  return { rules, defaultAction: mode === 'dontAsk' ? 'deny' : 'ask' };
}

/** A Claude Code settings document as a policy; throws PolicyValidationError naming every entry it cannot convert. */
export function fromClaudeCodeSettings(doc: unknown, options: ClaudeCodeImportOptions = {}): Policy {
  const parsed = ClaudeCodeSettingsSchema.safeParse(doc);
  if (!parsed.success) throw PolicyValidationError.fromZod(parsed.error, [], 'Claude Code settings');
  const perms = parsed.data.permissions;
  const issues: PolicyIssue[] = [];
  const rules: Rule[] = [];
  for (const action of ['deny', 'ask', 'allow'] as const) {
    (perms[action] ?? []).forEach((entry, i) => {
      const where = `permissions.${action}.${i}`;
      try {
        const converted = convertRule(entry, action).map((r) => ({ ...r, description: `Claude Code: ${entry}` }));
        compilePolicy({ rules: converted });
        rules.push(...converted);
      } catch (error) {
        const message = error instanceof PolicyValidationError ? error.issues[0]?.message : (error as Error).message;
        issues.push({ path: where, message: `"${entry}" ${message ?? 'cannot be converted'}` });
      }
    });
  }
  let mode: { rules: Rule[]; defaultAction: Action } = { rules: [], defaultAction: 'ask' };
  try {
    mode = modeRules(perms.defaultMode, perms.additionalDirectories ?? []);
  } catch (error) {
    issues.push({ path: 'permissions.defaultMode', message: (error as Error).message });
  }
  if (issues.length > 0) throw new PolicyValidationError(issues, 'Claude Code settings');
  const all = [...rules, ...mode.rules].map((r) => (options.agent ? { ...r, agent: options.agent } : r));
  return { defaultAction: mode.defaultAction, rules: all };
}
