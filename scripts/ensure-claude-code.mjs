#!/usr/bin/env node
// Makes sure the pinned Claude Code CLI is installed in a cache folder before the e2e suite runs.
// It is ~350 MB, so it is not a package.json dependency: it is fetched on demand, once, like
// Chromium. Plain Node, no deps. Prints the CLI path on success; exits 1 with the reason when it
// cannot, so the Claude Code specs fail loudly instead of silently skipping.
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CLAUDE_CODE_VERSION = '2.1.328';
const PACKAGE = '@anthropic-ai/claude-code';

/** The install folder: GATEHOUSE_CLAUDE_CODE_DIR, else ~/.cache/gatehouse/claude-code-<version>. */
export function claudeCodeDir(env = process.env) {
  const override = env.GATEHOUSE_CLAUDE_CODE_DIR;
  if (override) return resolve(override);
  return join(homedir(), '.cache', 'gatehouse', `claude-code-${CLAUDE_CODE_VERSION}`);
}

/** The CLI inside the install folder: a native executable (the package's postinstall puts the
 * platform's binary there), so it runs on this machine's Node 20 although the package asks for 22. */
export function claudeCodeCli(dir = claudeCodeDir()) {
  return join(dir, 'node_modules', '.bin', 'claude');
}

function fail(message) {
  console.error(`ensure-claude-code: ${message}`);
  process.exit(1);
}

function installedVersion(dir) {
  const result = spawnSync(claudeCodeCli(dir), ['--version'], {
    encoding: 'utf8',
    env: { ...process.env, DISABLE_AUTOUPDATER: '1' },
    timeout: 60_000,
  });
  return result.status === 0 ? result.stdout.trim() : null;
}

function ensure() {
  const dir = claudeCodeDir();
  const cli = claudeCodeCli(dir);
  if (existsSync(cli) && installedVersion(dir)?.startsWith(CLAUDE_CODE_VERSION)) return cli;

  console.log(`ensure-claude-code: installing ${PACKAGE}@${CLAUDE_CODE_VERSION} into ${dir} (large download)`);
  mkdirSync(dir, { recursive: true });
  const argv = [
    'install',
    '--prefix',
    dir,
    '--no-save',
    '--no-audit',
    '--no-fund',
    `${PACKAGE}@${CLAUDE_CODE_VERSION}`,
  ];
  const result = spawnSync('npm', argv, { stdio: 'inherit' });
  if (result.error) fail(`could not start npm: ${result.error.message}`);
  if (result.status !== 0) {
    fail(
      `"npm ${argv.join(' ')}" exited with ${result.status ?? `signal ${result.signal}`}; ` +
        `the Claude Code e2e specs need it (set GATEHOUSE_CLAUDE_CODE_DIR to a folder holding it).`,
    );
  }
  if (!existsSync(cli)) fail(`npm finished but ${cli} does not exist.`);
  const version = installedVersion(dir);
  if (!version?.startsWith(CLAUDE_CODE_VERSION)) {
    fail(`${cli} does not run or reports "${version ?? 'nothing'}" instead of ${CLAUDE_CODE_VERSION}.`);
  }
  console.log(`ensure-claude-code: installed ${version}`);
  return cli;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(ensure());
}
