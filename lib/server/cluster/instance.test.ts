import { afterEach, describe, expect, it } from 'vitest';
import { instanceId, InstanceIdError, parseInstanceId } from './instance';

describe('instance id', () => {
  const fixed = { hostname: 'web-1.internal', pid: 4242, random: () => 'abcd1234' };

  afterEach(() => {
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('gatehouse.instanceId')];
  });

  it.each([
    ['uses GATEHOUSE_INSTANCE_ID when set', { GATEHOUSE_INSTANCE_ID: 'gh-a' }, 'gh-a'],
    ['trims GATEHOUSE_INSTANCE_ID', { GATEHOUSE_INSTANCE_ID: '  pod-7:3000 ' }, 'pod-7:3000'],
    ['falls back to hostname-pid-random when unset', {}, 'web-1.internal-4242-abcd1234'],
    ['treats an empty GATEHOUSE_INSTANCE_ID as unset', { GATEHOUSE_INSTANCE_ID: ' ' }, 'web-1.internal-4242-abcd1234'],
  ])('%s', (_name, env, expected) => {
    expect(parseInstanceId({ ...fixed, env })).toBe(expected);
  });

  it.each([['has spaces'], ['-leading-dash'], ['x'.repeat(101)], ['semi;colon']])(
    'rejects GATEHOUSE_INSTANCE_ID %j',
    (value) => {
      expect(() => parseInstanceId({ ...fixed, env: { GATEHOUSE_INSTANCE_ID: value } })).toThrow(InstanceIdError);
    },
  );

  it('makes an odd hostname safe', () => {
    expect(parseInstanceId({ env: {}, hostname: '__my host__', pid: 1, random: () => 'r' })).toBe('my-host--1-r');
    expect(parseInstanceId({ env: {}, hostname: '***', pid: 1, random: () => 'r' })).toBe('host-1-r');
  });

  it('gives different processes different ids by default', () => {
    expect(parseInstanceId({ env: {} })).not.toBe(parseInstanceId({ env: {} }));
    expect(parseInstanceId({ env: {} })).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:-]+-\d+-[0-9a-f]{8}$/);
  });

  it('is parsed once per process', () => {
    const first = instanceId();
    expect(instanceId()).toBe(first);
  });
});
