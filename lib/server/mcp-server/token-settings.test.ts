// A token's choice of tools for its MCP clients: held in memory where this process alone writes
// (PGlite), and still applied to the very next call after a change.
import { afterEach, expect, it, vi } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import { ExposedTools, exposedBy, exposedToolsKey } from './token-settings';

it('exposedBy: names or globs, compiled once per held choice', () => {
  const held = ['echo', 'mcp__github__*'];
  const filter = exposedBy(held);
  expect(['echo', 'mcp__github__create_issue', 'bash', 'mcp__gitlab__x'].map(filter)).toEqual([
    true,
    true,
    false,
    false,
  ]);
  expect(exposedBy(held)).toBe(filter);
  // Another array (a choice read again) is compiled from what it says now.
  expect(exposedBy(['bash'])('bash')).toBe(true);
  expect(exposedBy(undefined)('anything')).toBe(true);
  expect(exposedBy([])('echo')).toBe(false);
});

describeStores('ExposedTools', (store) => {
  afterEach(() => void vi.restoreAllMocks());

  it('held in memory: read once, and read again after any setting write, so a change applies at once', async () => {
    const { q } = store();
    const read = vi.spyOn(q.settings, 'getSetting');
    const exposed = new ExposedTools(q, true);
    await q.settings.putSetting({ key: exposedToolsKey('t1'), value: '["echo"]' });
    expect(await exposed.get('t1')).toEqual(['echo']);
    expect(await exposed.get('t1')).toEqual(['echo']);
    expect(read).toHaveBeenCalledTimes(1);
    await q.settings.putSetting({ key: exposedToolsKey('t1'), value: '' });
    expect(await exposed.get('t1')).toBeUndefined();
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('not held (several instances: another may write): every call reads', async () => {
    const { q } = store();
    const read = vi.spyOn(q.settings, 'getSetting');
    const exposed = new ExposedTools(q, false);
    await q.settings.putSetting({ key: exposedToolsKey('t2'), value: '["a*"]' });
    await exposed.get('t2');
    await exposed.get('t2');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('a write that ends while the choice is being read makes the next call read again', async () => {
    const { q } = store();
    const exposed = new ExposedTools(q, true);
    await q.settings.putSetting({ key: exposedToolsKey('t3'), value: '["old"]' });
    const getSetting = q.settings.getSetting;
    // The write lands after the read saw the old value (what a concurrent PATCH can do).
    vi.spyOn(q.settings, 'getSetting').mockImplementationOnce(async (input) => {
      const value = await getSetting(input);
      await q.settings.putSetting({ key: exposedToolsKey('t3'), value: '["new"]' });
      return value;
    });
    expect(await exposed.get('t3')).toEqual(['old']);
    expect(await exposed.get('t3')).toEqual(['new']);
  });
});
