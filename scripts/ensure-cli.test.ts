// The coding CLIs' provisioning (ensure-cli.mjs), for each CLI: a folder that already holds the
// pinned version is used as it is, another version is reinstalled, and a CLI that cannot be
// installed fails with the reason (its e2e specs fail with it). No test ever downloads.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.join(__dirname, 'ensure-cli.mjs');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ensure-cli-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** npm's cache for the install attempts: empty, since no registry answers, and removed after. */
const NPM_CACHE = path.join(os.tmpdir(), `ensure-cli-npm-cache-${process.pid}`);
afterAll(() => rmSync(NPM_CACHE, { recursive: true, force: true }));

const CLIS = [
  {
    name: 'claude-code',
    env: 'GATEHOUSE_CLAUDE_CODE_DIR',
    bin: 'claude',
    pkg: '@anthropic-ai/claude-code',
    pinned: '2.1.328 (Claude Code)',
    other: '2.0.1 (Claude Code)',
    label: 'Claude Code',
  },
  {
    name: 'gemini-cli',
    env: 'GATEHOUSE_GEMINI_CLI_DIR',
    bin: 'gemini',
    pkg: '@google/gemini-cli',
    pinned: '0.61.0',
    other: '0.50.0',
    label: 'Gemini CLI',
  },
  {
    name: 'codex',
    env: 'GATEHOUSE_CODEX_DIR',
    bin: 'codex',
    pkg: '@openai/codex',
    pinned: 'codex-cli 0.169.0',
    other: 'codex-cli 0.150.0',
    label: 'Codex CLI',
  },
];

function ensure(names: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [SCRIPT, ...names], {
    encoding: 'utf8',
    // No registry can answer and the cache is empty: a test that tries to install fails fast, never downloads.
    env: {
      ...process.env,
      ...env,
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_cache: NPM_CACHE,
    },
    timeout: 60_000,
  });
}

function fakeCli(dir: string, bin: string, version: string) {
  const folder = path.join(dir, 'node_modules', '.bin');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, bin), `#!/bin/sh\necho "${version}"\n`);
  chmodSync(path.join(folder, bin), 0o755);
  return path.join(folder, bin);
}

describe.each(CLIS)('ensure-cli $name', (cli) => {
  it('uses a folder that already holds the pinned version, without installing', () => {
    const dir = tempDir();
    const bin = fakeCli(dir, cli.bin, cli.pinned);
    const result = ensure([cli.name], { [cli.env]: dir });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(bin);
    expect(result.stderr).not.toContain('installing');
  });

  it('fails with the reason when the CLI cannot be installed', () => {
    const result = ensure([cli.name], { [cli.env]: tempDir() });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`ensure-cli ${cli.name}: "npm install`);
    expect(result.stderr).toContain(`${cli.pkg}@`);
    expect(result.stderr).toContain(`the ${cli.label} e2e specs need it (set ${cli.env}`);
  });

  it('reinstalls when the folder holds another version', () => {
    const dir = tempDir();
    fakeCli(dir, cli.bin, cli.other);
    const result = ensure([cli.name], { [cli.env]: dir });
    expect(result.stderr).toContain(`installing ${cli.pkg}@`);
    expect(result.status).toBe(1);
  });
});

describe('ensure-cli', () => {
  it('prints each path in the order asked, one per line', () => {
    const env: Record<string, string> = {};
    const bins = CLIS.map((cli) => {
      const dir = tempDir();
      env[cli.env] = dir;
      return fakeCli(dir, cli.bin, cli.pinned);
    });
    const result = ensure(['codex', 'claude-code', 'gemini-cli'], env);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([bins[2], bins[0], bins[1]]);
  });

  it('refuses an unknown name, and no name at all', () => {
    expect(ensure(['cursor'], {}).stderr).toContain('unknown CLI (known: claude-code, gemini-cli, codex)');
    expect(ensure([], {}).status).toBe(1);
  });
});
