#!/usr/bin/env node
// Makes sure the pinned Codex CLI is installed in a cache folder for the Codex e2e spec. It is not
// a package.json dependency: fetched on demand, once, like Gemini CLI and Chromium (the npm package
// brings its native binary through an optional platform package). Plain Node, no deps. Prints the
// CLI path on success; exits 1 with the reason when it cannot (the spec skips with that reason).
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CODEX_VERSION = '0.169.0';
const PACKAGE = '@openai/codex';

/** The install folder: GATEHOUSE_CODEX_DIR, else ~/.cache/gatehouse/codex-<version>. */
export function codexDir(env = process.env) {
  const override = env.GATEHOUSE_CODEX_DIR;
  if (override) return resolve(override);
  return join(homedir(), '.cache', 'gatehouse', `codex-${CODEX_VERSION}`);
}

/** The CLI inside the install folder (a Node launcher for the native binary). */
export function codexBin(dir = codexDir()) {
  return join(dir, 'node_modules', '.bin', 'codex');
}

function fail(message) {
  console.error(`ensure-codex: ${message}`);
  process.exit(1);
}

/** `codex --version` prints `codex-cli <version>`; the version, or null. */
function installedVersion(dir) {
  const result = spawnSync(codexBin(dir), ['--version'], {
    encoding: 'utf8',
    // A throwaway home: --version must not read or write the developer's ~/.codex.
    env: { PATH: process.env.PATH, HOME: dir, CODEX_HOME: join(dir, '.codex-home') },
    timeout: 60_000,
  });
  return result.status === 0 ? result.stdout.trim().replace(/^codex-cli\s+/, '') : null;
}

function ensure() {
  const dir = codexDir();
  const cli = codexBin(dir);
  if (existsSync(cli) && installedVersion(dir) === CODEX_VERSION) return cli;

  console.log(`ensure-codex: installing ${PACKAGE}@${CODEX_VERSION} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  const argv = ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `${PACKAGE}@${CODEX_VERSION}`];
  const result = spawnSync('npm', argv, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) fail(`could not start npm: ${result.error.message}`);
  if (result.status !== 0) {
    fail(
      `"npm ${argv.join(' ')}" exited with ${result.status ?? `signal ${result.signal}`}; ` +
        `the Codex e2e spec needs it (set GATEHOUSE_CODEX_DIR to a folder holding it).`,
    );
  }
  if (!existsSync(cli)) fail(`npm finished but ${cli} does not exist.`);
  const version = installedVersion(dir);
  if (version !== CODEX_VERSION) {
    fail(`${cli} does not run or reports "${version ?? 'nothing'}" instead of ${CODEX_VERSION}.`);
  }
  console.log(`ensure-codex: installed ${version}`);
  return cli;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(ensure());
}
