// The Claude Code provisioning: a folder that already holds the pinned CLI is used as it is, and a
// CLI that cannot be installed fails with the reason (the e2e specs show it) instead of skipping.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.join(__dirname, 'ensure-claude-code.mjs');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ensure-cc-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ensure(dir: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [SCRIPT], {
    encoding: 'utf8',
    // No registry can answer and the cache is empty: a test that tries to install fails fast, never downloads.
    env: {
      ...process.env,
      GATEHOUSE_CLAUDE_CODE_DIR: dir,
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_cache: path.join(dir, '.npm-cache'),
      ...env,
    },
    timeout: 60_000,
  });
}

describe('ensure-claude-code', () => {
  it('uses a folder that already holds the pinned version, without installing', () => {
    const dir = tempDir();
    const bin = path.join(dir, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho "2.1.328 (Claude Code)"\n');
    chmodSync(path.join(bin, 'claude'), 0o755);
    const result = ensure(dir);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(path.join(bin, 'claude'));
    expect(result.stdout).not.toContain('installing');
  });

  it('fails with the reason when the CLI cannot be installed', () => {
    const result = ensure(tempDir());
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /ensure-claude-code: "npm install .*@anthropic-ai\/claude-code@2\.1\.328" exited with \d+; the Claude Code e2e specs need it/,
    );
  });

  it('reinstalls when the folder holds another version', () => {
    const dir = tempDir();
    const bin = path.join(dir, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho "2.0.1 (Claude Code)"\n');
    chmodSync(path.join(bin, 'claude'), 0o755);
    const result = ensure(dir);
    expect(result.stdout).toContain('installing @anthropic-ai/claude-code@2.1.328');
    expect(result.status).toBe(1);
  });
});
