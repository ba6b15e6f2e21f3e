import { describe, expect, it } from 'vitest';
import { modeLabel, type RunStatus, type RunSummary } from '@/lib/contract';
import { hasLiveRun, parseLimit, parseRunStatus, runStatusLabel, runsUrl } from './runs-list';

const run = (status: RunStatus): RunSummary => ({
  id: status,
  sessionId: 's',
  status,
  mode: 'default',
  agent: null,
  model: 'offline',
  title: null,
  createdAt: '',
  updatedAt: '',
});

describe('run statuses', () => {
  it('show "waiting for approval" for a paused run and keep the other words', () => {
    expect(runStatusLabel('waiting')).toBe('waiting for approval');
    expect(runStatusLabel('cancelled')).toBe('cancelled');
  });

  it('parse only the statuses the API knows', () => {
    expect(parseRunStatus('done')).toBe('done');
    expect(parseRunStatus('paused')).toBeUndefined();
    expect(parseRunStatus(null)).toBeUndefined();
  });
});

describe('hasLiveRun: the list polls only while a run on screen can still change', () => {
  it.each([
    [['done', 'failed', 'cancelled'], false],
    [['done', 'waiting'], true],
    [['running'], true],
  ] as const)('%j -> %s', (statuses, live) => {
    expect(hasLiveRun({ pages: [{ items: statuses.map(run), nextCursor: null }], pageParams: [null] })).toBe(live);
  });

  it('is false before the first page arrives', () => expect(hasLiveRun(undefined)).toBe(false));
});

it('runsUrl sends the filter and the cursor', () => {
  expect(runsUrl({})).toBe('/api/runs');
  expect(runsUrl({ status: 'waiting', limit: 10 }, 'c1')).toBe('/api/runs?status=waiting&limit=10&cursor=c1');
  expect(runsUrl({ source: 'hook' })).toBe('/api/runs?source=hook');
});

it("modeLabel uses the chat picker's labels", () => {
  expect(modeLabel('bypassPermissions')).toBe('Auto-approve');
  expect(modeLabel(null)).toBe('Safe mode');
  expect(modeLabel('custom')).toBe('custom');
});

it('parseLimit keeps only page sizes the API accepts', () => {
  expect(parseLimit('25')).toBe(25);
  expect([parseLimit('0'), parseLimit('201'), parseLimit('2.5'), parseLimit('x'), parseLimit(null)]).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});
