#!/usr/bin/env node
// Makes sure the pinned Gemini CLI is installed in a cache folder for the Gemini CLI e2e spec. It
// is not a package.json dependency: fetched on demand, once, like Claude Code and Chromium. Plain
// Node, no deps. Prints the CLI path on success; exits 1 with the reason when it cannot (the spec
// skips with that reason).
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const GEMINI_CLI_VERSION = '0.61.0';
const PACKAGE = '@google/gemini-cli';

/** The install folder: GATEHOUSE_GEMINI_CLI_DIR, else ~/.cache/gatehouse/gemini-cli-<version>. */
export function geminiCliDir(env = process.env) {
  const override = env.GATEHOUSE_GEMINI_CLI_DIR;
  if (override) return resolve(override);
  return join(homedir(), '.cache', 'gatehouse', `gemini-cli-${GEMINI_CLI_VERSION}`);
}

/** The CLI inside the install folder (a Node script; the package needs Node 20 or later). */
export function geminiCliBin(dir = geminiCliDir()) {
  return join(dir, 'node_modules', '.bin', 'gemini');
}

function fail(message) {
  console.error(`ensure-gemini-cli: ${message}`);
  process.exit(1);
}

function installedVersion(dir) {
  const result = spawnSync(geminiCliBin(dir), ['--version'], {
    encoding: 'utf8',
    // A throwaway HOME: --version must not read or write the developer's ~/.gemini.
    env: { PATH: process.env.PATH, HOME: dir, GEMINI_TELEMETRY_ENABLED: 'false' },
    timeout: 60_000,
  });
  return result.status === 0 ? result.stdout.trim() : null;
}

function ensure() {
  const dir = geminiCliDir();
  const cli = geminiCliBin(dir);
  if (existsSync(cli) && installedVersion(dir)?.startsWith(GEMINI_CLI_VERSION)) return cli;

  console.log(`ensure-gemini-cli: installing ${PACKAGE}@${GEMINI_CLI_VERSION} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  const argv = ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `${PACKAGE}@${GEMINI_CLI_VERSION}`];
  const result = spawnSync('npm', argv, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) fail(`could not start npm: ${result.error.message}`);
  if (result.status !== 0) {
    fail(
      `"npm ${argv.join(' ')}" exited with ${result.status ?? `signal ${result.signal}`}; ` +
        `the Gemini CLI e2e spec needs it (set GATEHOUSE_GEMINI_CLI_DIR to a folder holding it).`,
    );
  }
  if (!existsSync(cli)) fail(`npm finished but ${cli} does not exist.`);
  const version = installedVersion(dir);
  if (!version?.startsWith(GEMINI_CLI_VERSION)) {
    fail(`${cli} does not run or reports "${version ?? 'nothing'}" instead of ${GEMINI_CLI_VERSION}.`);
  }
  console.log(`ensure-gemini-cli: installed ${version}`);
  return cli;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(ensure());
}
