// The coding CLIs the e2e specs drive (Claude Code, Gemini CLI, Codex), installed by
// scripts/ensure-cli.mjs on first use (a no-op when present): the binary's path, or the
// installer's reason, so a machine that cannot have the CLI fails its spec with that reason.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export type ProvisionedCli = { bin: string } | { error: string };

const provisioned = new Map<string, ProvisionedCli>();

/** `cli` as ensure-cli.mjs names it (`claude-code`, `gemini-cli`, `codex`); `label` names it in the reason. */
export function provisionCli(cli: string, label: string): ProvisionedCli {
  const known = provisioned.get(cli);
  if (known) return known;
  const script = path.join(process.cwd(), 'scripts', 'ensure-cli.mjs');
  const result = spawnSync(process.execPath, [script, cli], { encoding: 'utf8', timeout: 15 * 60_000 });
  const outcome: ProvisionedCli =
    result.status === 0
      ? { bin: result.stdout.trim().split('\n').at(-1)! }
      : { error: `the ${label} is not available: ${result.stderr.trim() || result.error?.message}` };
  provisioned.set(cli, outcome);
  return outcome;
}
