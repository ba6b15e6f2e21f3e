// "Always Allow" derivation: the narrowest useful rules that would allow this call again.
// A shell command gives one rule per part: `git push origin main` -> `git push *`, `ls /tmp`
// -> `ls *`; risky or opaque commands only ever give their exact text, and a dangerous option is
// always spelled out (`sed -i s/a/b/ f` -> `sed -i *`). `fetch_url` gives the
// URL's origin, file tools the exact path, other tools the tool itself.
import { escapePathGlob, pathContext, resolvePath } from './paths';
import { normalizeUrl } from './urls';
import { paramKindOf } from './kinds';
import { dangersOf } from './programs/dangerous';
import { parseCommand } from './shell/parse';
import { compileCommandPattern } from './shell/pattern';
import type { ShellPart } from './shell/types';
import { basename, quoteWord } from './shell/words';
import { escapeTextGlob } from './glob';
import type { EvaluationContext, Rule, ToolCall } from './types';

/** Programs that take a subcommand: the derived rule keeps it (`git push *`, not `git *`). */
const WITH_SUBCOMMANDS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'deno',
  'npx',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'cargo',
  'go',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'gh',
  'terraform',
  'systemctl',
  'apt',
  'apt-get',
  'brew',
  'dotnet',
  'mvn',
  'gradle',
  'make',
  'composer',
  'gem',
  'bundle',
  'rustup',
  'conda',
  'aws',
  'gcloud',
  'az',
  'nix',
]);

/** Programs whose every use is weighty: only the exact command is ever derived. */
const RISKY = new Set([
  'rm',
  'rmdir',
  'shred',
  'unlink',
  'sudo',
  'doas',
  'su',
  'chmod',
  'chown',
  'chgrp',
  'chattr',
  'dd',
  'mkfs',
  'fdisk',
  'parted',
  'mount',
  'umount',
  'kill',
  'killall',
  'pkill',
  'reboot',
  'shutdown',
  'halt',
  'poweroff',
  'systemctl',
  'crontab',
  'eval',
  'exec',
  'source',
  '.',
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'truncate',
  'iptables',
  'useradd',
  'userdel',
  'passwd',
  'ssh',
  'scp',
  'rsync',
  'nc',
  'ncat',
  'socat',
]);

/** Interpreters that run code given inline with one of these flags. */
const INLINE_CODE: Record<string, string[]> = {
  python: ['-c'],
  python3: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  deno: ['eval'],
  bun: ['-e', '--eval'],
  awk: [],
  osascript: ['-e'],
  pwsh: ['-c', '-Command'],
};

export function derivePermission(call: ToolCall, ctx: EvaluationContext = {}): Rule[] {
  // The agent's name as a literal: a name with `*` in it must not become a grant for every agent.
  const base = {
    action: 'allow' as const,
    tool: call.tool,
    ...(call.agent ? { agent: escapeTextGlob(call.agent) } : {}),
  };
  const kinds = Object.keys(call.params ?? {}).map(
    (key) => [key, paramKindOf(call.tool, key, ctx.paramKinds)] as const,
  );
  const command = kinds.find(([, kind]) => kind === 'command');
  if (command) {
    const value = call.params[command[0]];
    if (typeof value !== 'string') return [];
    const parsed = parseCommand(value);
    const feedsShell = parsed.parts.some((p) => p.shellFromStdin);
    const patterns = [...new Set(parsed.parts.map((part) => commandPattern(part, feedsShell)))];
    return patterns.map((pattern) => ({
      ...base,
      params: { [command[0]]: pattern },
      description: `Always allow: ${pattern}`,
    }));
  }
  const params: Record<string, string> = {};
  for (const [key, kind] of kinds) {
    const value = call.params[key];
    if (typeof value !== 'string') continue;
    if (kind === 'path') params[key] = escapePathGlob(resolvePath(value, pathContext(ctx.workspaceRoot, ctx.homeDir)));
    if (kind === 'url') {
      const url = normalizeUrl(value);
      params[key] = url ? `${url.origin}/**` : escapeTextGlob(value);
    }
  }
  if (ctx.risk === 'destructive') {
    for (const [key, kind] of kinds) {
      const value = call.params[key];
      if (kind === 'text' && value !== undefined)
        params[key] = escapeTextGlob(typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  const what = Object.entries(params)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return [
    { ...base, ...(what ? { params } : {}), description: `Always allow: ${call.tool}${what ? ` (${what})` : ''}` },
  ];
}

/** The exact command. A word only known at run time stays as written: such a rule never matches it again. */
function exact(part: ShellPart): string {
  return part.words.map((w) => (w.dynamic ? w.value : quoteWord(w.value))).join(' ');
}

function commandPattern(part: ShellPart, feedsShell: boolean): string {
  const pattern = widestPattern(part, feedsShell);
  return pattern === exact(part) ? pattern : spellingDangers(part, pattern);
}

/**
 * A derived rule never silently covers a dangerous option (programs/dangerous.ts): when the
 * pattern does not spell each one out, it keeps the command's words up to the last of them, then
 * a wildcard (`sed -i *`, `find . -delete *`); a danger no pattern can spell (a word only known at
 * run time, xargs) gives the exact command.
 */
function spellingDangers(part: ShellPart, pattern: string): string {
  const dangers = dangersOf(part.views[part.views.length - 1]!, part.openArgs);
  if (dangers.length === 0) return pattern;
  const literals = new Set(compileCommandPattern(pattern).words.flatMap((w) => (w.kind === 'literal' ? [w.text] : [])));
  let last = -1;
  for (const danger of dangers) {
    if (danger.word && literals.has(danger.word.value)) continue;
    const at = danger.word ? part.words.indexOf(danger.word) : -1;
    if (at < 0) return exact(part);
    last = Math.max(last, at);
  }
  if (last < 0) return pattern;
  const prefix = part.words.slice(0, last + 1);
  if (prefix.some((w) => w.dynamic)) return exact(part);
  return `${prefix.map((w) => quoteWord(w.value)).join(' ')} *`;
}

function widestPattern(part: ShellPart, feedsShell: boolean): string {
  const wrappers = part.views.slice(0, -1);
  const privileged = part.words !== part.views[part.views.length - 1];
  const viaShell = wrappers.some((view) => {
    const name = basename(view[0]?.value ?? '');
    return name === 'eval' || RISKY.has(name);
  });
  if (part.opaque || feedsShell || privileged || viaShell || part.words.length === 0) return exact(part);
  const [program, ...args] = part.words;
  const name = basename(program!.value);
  const inline = INLINE_CODE[name];
  if (RISKY.has(name) || name.startsWith('mkfs') || (inline && args.some((a) => inline.includes(a.value))))
    return exact(part);
  const head = quoteWord(program!.value);
  if (name === 'find' && args.some((a) => /^-(exec|execdir|ok|okdir|delete|fprint\w*|fls)$/.test(a.value)))
    return exact(part);
  if (WITH_SUBCOMMANDS.has(name) && args[0]) {
    if (args[0].value.startsWith('-') || args[0].dynamic) return exact(part);
    return `${head} ${quoteWord(args[0].value)} *`;
  }
  return `${head} *`;
}
