import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

describe('parseConfig', () => {
  it('works with zero variables: embedded data under .data, offline model', () => {
    expect(parseConfig({}, '/app')).toEqual({ dataDir: '/app/.data', workspace: '/app/.data/workspace', model: 'offline', approvalTimeoutS: 300, maxBodyBytes: 1_000_000 });
  });

  it('reads every variable', () => {
    const config = parseConfig(
      { GATEHOUSE_DATA_DIR: 'var', DATABASE_URL: 'postgres://u:p@h/db', GATEHOUSE_WORKSPACE: '/ws', GATEHOUSE_MODEL: 'openai:gpt-4o', GATEHOUSE_APPROVAL_TIMEOUT_S: '30', GATEHOUSE_MAX_BODY_BYTES: '2048' },
      '/app',
    );
    expect(config).toEqual({ dataDir: '/app/var', databaseUrl: 'postgres://u:p@h/db', workspace: '/ws', model: 'openai:gpt-4o', approvalTimeoutS: 30, maxBodyBytes: 2048 });
  });

  it('treats empty variables as unset', () => {
    expect(parseConfig({ DATABASE_URL: '', GATEHOUSE_MODEL: ' ' }, '/app')).toMatchObject({ model: 'offline' });
  });

  it.each([
    [{ GATEHOUSE_APPROVAL_TIMEOUT_S: 'soon' }, 'GATEHOUSE_APPROVAL_TIMEOUT_S'],
    [{ GATEHOUSE_APPROVAL_TIMEOUT_S: '-5' }, 'GATEHOUSE_APPROVAL_TIMEOUT_S'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
  ])('rejects %j naming the variable', (env, variable) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(variable);
  });
});
