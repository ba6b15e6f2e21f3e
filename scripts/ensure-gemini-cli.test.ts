// The Gemini CLI provisioning: a folder that already holds the pinned CLI is used as it is, and a
// CLI that cannot be installed fails with the reason (the e2e spec skips with it).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.join(__dirname, 'ensure-gemini-cli.mjs');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ensure-gemini-'));
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
      GATEHOUSE_GEMINI_CLI_DIR: dir,
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
  writeFileSync(path.join(bin, 'gemini'), `#!/bin/sh\necho "${version}"\n`);
  chmodSync(path.join(bin, 'gemini'), 0o755);
  return path.join(bin, 'gemini');
}

describe('ensure-gemini-cli', () => {
  it('uses a folder that already holds the pinned version, without installing', () => {
    const dir = tempDir();
    const cli = fakeCli(dir, '0.61.0');
    const result = ensure(dir);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(cli);
    expect(result.stdout).not.toContain('installing');
  });

  it('fails with the reason when the CLI cannot be installed', () => {
    const result = ensure(tempDir());
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /ensure-gemini-cli: "npm install .*@google\/gemini-cli@0\.61\.0" exited with \d+; the Gemini CLI e2e spec needs it/,
    );
  });

  it('reinstalls when the folder holds another version', () => {
    const dir = tempDir();
    fakeCli(dir, '0.50.0');
    const result = ensure(dir);
    expect(result.stdout).toContain('installing @google/gemini-cli@0.61.0');
    expect(result.status).toBe(1);
  });
});
