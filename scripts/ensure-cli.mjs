#!/usr/bin/env node
// Makes sure the pinned coding CLIs the e2e specs drive are installed, each in its own cache folder:
// `node scripts/ensure-cli.mjs claude-code gemini-cli codex` (any of them). They are not
// package.json dependencies (Claude Code alone is about 350 MB): fetched from the npm registry on
// demand, once, like Chromium. Plain Node, no deps. Prints each CLI's path on success, one per line
// in the order asked; exits 1 with the reason when one cannot be had, so its specs fail loudly
// instead of skipping. GATEHOUSE_<NAME>_DIR (e.g. GATEHOUSE_CODEX_DIR) points at a folder holding it.
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Each CLI: its npm package and pinned version, its command, and how `--version` is asked and read. */
const CLIS = {
  'claude-code': {
    label: 'Claude Code',
    package: '@anthropic-ai/claude-code',
    version: '2.1.328',
    // A native executable (the package's postinstall puts the platform's binary there), so it runs
    // on this machine's Node 20 although the package asks for 22.
    bin: 'claude',
    versionEnv: (dir) => ({ HOME: dir }),
    parseVersion: (out) => out,
  },
  'gemini-cli': {
    label: 'Gemini CLI',
    package: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    // A throwaway HOME: --version must not read or write the developer's ~/.gemini.
    versionEnv: (dir) => ({ HOME: dir, GEMINI_TELEMETRY_ENABLED: 'false' }),
    parseVersion: (out) => out,
  },
  codex: {
    label: 'Codex CLI',
    package: '@openai/codex',
    version: '0.169.0',
    // A Node launcher for the native binary the package brings through an optional platform package.
    bin: 'codex',
    versionEnv: (dir) => ({ HOME: dir, CODEX_HOME: join(dir, '.codex-home') }),
    // `codex --version` prints `codex-cli <version>`.
    parseVersion: (out) => out.replace(/^codex-cli\s+/, ''),
  },
};

/** The install folder: GATEHOUSE_<NAME>_DIR, else ~/.cache/gatehouse/<name>-<version>. */
function cliDir(name, env = process.env) {
  const override = env[`GATEHOUSE_${name.toUpperCase().replace(/-/g, '_')}_DIR`];
  if (override) return resolve(override);
  return join(homedir(), '.cache', 'gatehouse', `${name}-${CLIS[name].version}`);
}

function fail(name, message) {
  console.error(`ensure-cli ${name}: ${message}`);
  process.exit(1);
}

/** The version the installed CLI reports, or null when it does not run. */
function installedVersion(name, dir, bin) {
  const cli = CLIS[name];
  const result = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...cli.versionEnv(dir) },
    timeout: 60_000,
  });
  return result.status === 0 ? cli.parseVersion(result.stdout.trim()) : null;
}

function ensure(name) {
  const cli = CLIS[name];
  if (!cli) fail(name, `unknown CLI (known: ${Object.keys(CLIS).join(', ')})`);
  const dir = cliDir(name);
  const bin = join(dir, 'node_modules', '.bin', cli.bin);
  if (existsSync(bin) && installedVersion(name, dir, bin)?.startsWith(cli.version)) return bin;

  console.error(`ensure-cli ${name}: installing ${cli.package}@${cli.version} into ${dir}`);
  mkdirSync(dir, { recursive: true });
  const argv = ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `${cli.package}@${cli.version}`];
  // npm's output goes to stderr: stdout carries only the CLIs' paths.
  const result = spawnSync('npm', argv, { stdio: ['ignore', 2, 2] });
  if (result.error) fail(name, `could not start npm: ${result.error.message}`);
  if (result.status !== 0) {
    fail(
      name,
      `"npm ${argv.join(' ')}" exited with ${result.status ?? `signal ${result.signal}`}; ` +
        `the ${cli.label} e2e specs need it (set GATEHOUSE_${name.toUpperCase().replace(/-/g, '_')}_DIR to a folder holding it).`,
    );
  }
  if (!existsSync(bin)) fail(name, `npm finished but ${bin} does not exist.`);
  const version = installedVersion(name, dir, bin);
  if (!version?.startsWith(cli.version)) {
    fail(name, `${bin} does not run or reports "${version ?? 'nothing'}" instead of ${cli.version}.`);
  }
  console.error(`ensure-cli ${name}: installed ${version}`);
  return bin;
}

const names = process.argv.slice(2);
if (names.length === 0) fail('', `name the CLIs to install: ${Object.keys(CLIS).join(', ')}`);
for (const name of names) console.log(ensure(name));
