// The Codex CLI provisioning: a folder that already holds the pinned CLI is used as it is, and a
// CLI that cannot be installed fails with the reason (the e2e spec skips with it).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.join(__dirname, 'ensure-codex.mjs');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ensure-codex-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ensure(dir: string) {
  return spawnSync(process.execPath, [SCRIPT], {
    encoding: 'utf8',
    // No registry can answer and the cache is empty: a test that tries to install fails fast, never downloads.
    env: {
      ...process.env,
      GATEHOUSE_CODEX_DIR: dir,
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_cache: path.join(dir, '.npm-cache'),
    },
    timeout: 60_000,
  });
}

function fakeCli(dir: string, version: string) {
  const bin = path.join(dir, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, 'codex'), `#!/bin/sh\necho "${version}"\n`);
  chmodSync(path.join(bin, 'codex'), 0o755);
  return path.join(bin, 'codex');
}

describe('ensure-codex', () => {
  it('uses a folder that already holds the pinned version, without installing', () => {
    const dir = tempDir();
    const cli = fakeCli(dir, 'codex-cli 0.169.0');
    const result = ensure(dir);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(cli);
    expect(result.stdout).not.toContain('installing');
  });

  it('fails with the reason when the CLI cannot be installed', () => {
    const result = ensure(tempDir());
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /ensure-codex: "npm install .*@openai\/codex@0\.169\.0" exited with \d+; the Codex e2e spec needs it/,
    );
  });

  it('reinstalls when the folder holds another version', () => {
    const dir = tempDir();
    fakeCli(dir, 'codex-cli 0.150.0');
    const result = ensure(dir);
    expect(result.stdout).toContain('installing @openai/codex@0.169.0');
    expect(result.status).toBe(1);
  });
});
