import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_ENV_VARIABLES } from '../agent/models/env';
import { CONFIG_ENV, ConfigError, parseConfig } from './config';

describe('parseConfig', () => {
  it('works with zero variables: embedded data under .data, offline model', () => {
    expect(parseConfig({}, '/app')).toEqual({
      dataDir: '/app/.data',
      workspace: '/app/.data/workspace',
      model: 'offline',
      approvalTimeoutS: 300,
      maxBodyBytes: 1_000_000,
      sseHeartbeatMs: 15_000,
      maxStreamsPerUser: 32,
      maxRunsPerUser: 100,
      maxWaitingPerUser: 100,
      leaseTtlS: 15,
      trustedProxies: 0,
      mcpUiStdio: false,
      webhooks: { allowPrivate: false, timeoutMs: 5_000, retryBaseMs: 1_000, retryForS: 3_600, pollMs: 1_000 },
    });
  });

  it('reads every variable', () => {
    const config = parseConfig(
      {
        GATEHOUSE_DATA_DIR: 'var',
        DATABASE_URL: 'postgres://u:p@h/db',
        GATEHOUSE_WORKSPACE: '/ws',
        GATEHOUSE_MODEL: 'openai:gpt-4o',
        GATEHOUSE_APPROVAL_TIMEOUT_S: '30',
        GATEHOUSE_MAX_BODY_BYTES: '2048',
        GATEHOUSE_SSE_HEARTBEAT_MS: '1000',
        GATEHOUSE_MAX_STREAMS_PER_USER: '4',
        GATEHOUSE_MAX_RUNS_PER_USER: '5',
        GATEHOUSE_MAX_WAITING_PER_USER: '6',
        GATEHOUSE_LEASE_TTL_S: '6',
        GATEHOUSE_TRUSTED_PROXIES: '2',
        GATEHOUSE_MCP_CONFIG: 'mcp.json',
        GATEHOUSE_MCP_UI_STDIO: '1',
        GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE: '1',
        GATEHOUSE_WEBHOOKS_TIMEOUT_MS: '200',
        GATEHOUSE_WEBHOOKS_RETRY_BASE_MS: '10',
        GATEHOUSE_WEBHOOKS_RETRY_FOR_S: '2',
        GATEHOUSE_WEBHOOKS_POLL_MS: '50',
      },
      '/app',
    );
    expect(config).toEqual({
      dataDir: '/app/var',
      databaseUrl: 'postgres://u:p@h/db',
      workspace: '/ws',
      model: 'openai:gpt-4o',
      approvalTimeoutS: 30,
      maxBodyBytes: 2048,
      sseHeartbeatMs: 1000,
      maxStreamsPerUser: 4,
      maxRunsPerUser: 5,
      maxWaitingPerUser: 6,
      leaseTtlS: 6,
      trustedProxies: 2,
      mcpConfigPath: '/app/mcp.json',
      mcpUiStdio: true,
      webhooks: { allowPrivate: true, timeoutMs: 200, retryBaseMs: 10, retryForS: 2, pollMs: 50 },
    });
  });

  it('reads the admin token and the cookie secret only when set', () => {
    const config = parseConfig(
      { GATEHOUSE_ADMIN_TOKEN: ' test-admin-token-0123 ', GATEHOUSE_SECRET: 's'.repeat(32) },
      '/app',
    );
    expect(config).toMatchObject({ adminToken: 'test-admin-token-0123', secret: 's'.repeat(32) });
    const none = parseConfig({ GATEHOUSE_ADMIN_TOKEN: '', GATEHOUSE_SECRET: ' ' }, '/app');
    expect(none).not.toHaveProperty('adminToken');
    expect(none).not.toHaveProperty('secret');
  });

  it('reads the public URL without a trailing slash', () => {
    expect(parseConfig({ GATEHOUSE_PUBLIC_URL: 'https://gate.example.com/' }, '/app')).toMatchObject({
      publicUrl: 'https://gate.example.com',
    });
  });

  it('treats empty variables as unset', () => {
    expect(parseConfig({ DATABASE_URL: '', GATEHOUSE_MODEL: ' ' }, '/app')).toMatchObject({ model: 'offline' });
  });

  it.each([
    [{ GATEHOUSE_APPROVAL_TIMEOUT_S: 'soon' }, 'GATEHOUSE_APPROVAL_TIMEOUT_S'],
    [{ GATEHOUSE_APPROVAL_TIMEOUT_S: '-5' }, 'GATEHOUSE_APPROVAL_TIMEOUT_S'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ GATEHOUSE_SSE_HEARTBEAT_MS: '0' }, 'GATEHOUSE_SSE_HEARTBEAT_MS'],
    [{ GATEHOUSE_SSE_HEARTBEAT_MS: '1.5' }, 'GATEHOUSE_SSE_HEARTBEAT_MS'],
    [{ GATEHOUSE_MAX_STREAMS_PER_USER: '0' }, 'GATEHOUSE_MAX_STREAMS_PER_USER'],
    [{ GATEHOUSE_MAX_STREAMS_PER_USER: '-3' }, 'GATEHOUSE_MAX_STREAMS_PER_USER'],
    [{ GATEHOUSE_MAX_STREAMS_PER_USER: '2.5' }, 'GATEHOUSE_MAX_STREAMS_PER_USER'],
    [{ GATEHOUSE_MAX_STREAMS_PER_USER: 'many' }, 'GATEHOUSE_MAX_STREAMS_PER_USER'],
    [{ GATEHOUSE_MAX_STREAMS_PER_USER: '2001' }, 'GATEHOUSE_MAX_STREAMS_PER_USER'],
    [{ GATEHOUSE_MAX_RUNS_PER_USER: '0' }, 'GATEHOUSE_MAX_RUNS_PER_USER'],
    [{ GATEHOUSE_MAX_RUNS_PER_USER: '100001' }, 'GATEHOUSE_MAX_RUNS_PER_USER'],
    [{ GATEHOUSE_MAX_RUNS_PER_USER: 'lots' }, 'GATEHOUSE_MAX_RUNS_PER_USER'],
    [{ GATEHOUSE_MAX_WAITING_PER_USER: '0' }, 'GATEHOUSE_MAX_WAITING_PER_USER'],
    [{ GATEHOUSE_MAX_WAITING_PER_USER: '1.5' }, 'GATEHOUSE_MAX_WAITING_PER_USER'],
    [{ GATEHOUSE_ADMIN_TOKEN: 'short' }, 'GATEHOUSE_ADMIN_TOKEN'],
    [{ GATEHOUSE_ADMIN_TOKEN: 'has a space inside it' }, 'GATEHOUSE_ADMIN_TOKEN'],
    [{ GATEHOUSE_SECRET: 'too-short' }, 'GATEHOUSE_SECRET'],
    [{ GATEHOUSE_PUBLIC_URL: 'gate.example.com' }, 'GATEHOUSE_PUBLIC_URL'],
    [{ GATEHOUSE_TRUSTED_PROXIES: '-1' }, 'GATEHOUSE_TRUSTED_PROXIES'],
    [{ GATEHOUSE_TRUSTED_PROXIES: 'one' }, 'GATEHOUSE_TRUSTED_PROXIES'],
    [{ GATEHOUSE_TRUSTED_PROXIES: '11' }, 'GATEHOUSE_TRUSTED_PROXIES'],
    [{ GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE: 'yes' }, 'GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE'],
    [{ GATEHOUSE_WEBHOOKS_TIMEOUT_MS: '0' }, 'GATEHOUSE_WEBHOOKS_TIMEOUT_MS'],
    [{ GATEHOUSE_WEBHOOKS_RETRY_FOR_S: 'an hour' }, 'GATEHOUSE_WEBHOOKS_RETRY_FOR_S'],
  ])('rejects %j naming the variable', (env, variable) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(variable);
  });
});

describe('GATEHOUSE_MAX_STREAMS_PER_USER', () => {
  it('takes 1 up to the process-wide cap of 2000', () => {
    expect(parseConfig({ GATEHOUSE_MAX_STREAMS_PER_USER: '1' }, '/app').maxStreamsPerUser).toBe(1);
    expect(parseConfig({ GATEHOUSE_MAX_STREAMS_PER_USER: ' 2000 ' }, '/app').maxStreamsPerUser).toBe(2000);
  });

  it('refuses a bad value at start with a message naming the variable, the range and the value', () => {
    expect(() => parseConfig({ GATEHOUSE_MAX_STREAMS_PER_USER: '0' })).toThrow(
      'Invalid configuration: GATEHOUSE_MAX_STREAMS_PER_USER must be a whole number from 1 to 2000, got "0"',
    );
  });
});

describe("README's configuration table", () => {
  // Read outside the config schema, each by the one module that needs it.
  const READ_ELSEWHERE = [
    'GATEHOUSE_INSTANCE_ID', // lib/server/cluster/instance.ts
    'GATEHOUSE_SPAWN_HELPER', // lib/agent/exec/spawn-helper.ts
    ...MODEL_ENV_VARIABLES.map((v) => v.name), // lib/agent/models/env.ts
  ];

  it('lists exactly the variables the config schema and the model providers read', () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Configuration\n'));
    const table = section.slice(0, section.indexOf('\n## ', 1));
    const documented = table
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
    expect([...documented].sort()).toEqual([...CONFIG_ENV, ...READ_ELSEWHERE].sort());
  });
});
