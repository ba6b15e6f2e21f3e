import { describe, expect, it } from 'vitest';
import {
  auditFilterQuery,
  auditUrl,
  formatWait,
  fromLocalInput,
  parseAuditFilter,
  ruleLabel,
  toLocalInput,
} from './audit';

describe('the audit filter round-trips through the page URL', () => {
  it('reads every filter and writes it back in a stable order', () => {
    const params = new URLSearchParams(
      'who=user&run=r1&tool=bash&action=deny&kind=decision&from=2026-01-02T03:04:00.000Z&to=2026-01-03T00:00:00.000Z&limit=2',
    );
    const filter = parseAuditFilter(params);
    expect(filter).toEqual({
      run: 'r1',
      tool: 'bash',
      action: 'deny',
      who: 'user',
      kind: 'decision',
      from: '2026-01-02T03:04:00.000Z',
      to: '2026-01-03T00:00:00.000Z',
      limit: 2,
    });
    expect(auditFilterQuery(filter)).toBe(
      'run=r1&tool=bash&action=deny&who=user&kind=decision&from=2026-01-02T03%3A04%3A00.000Z&to=2026-01-03T00%3A00%3A00.000Z&limit=2',
    );
    expect(parseAuditFilter(new URLSearchParams(auditFilterQuery(filter)))).toEqual(filter);
  });

  it('drops values the API would reject instead of showing an error page', () => {
    const params = new URLSearchParams('action=maybe&from=yesterday&limit=0&run=%20%20&tool=');
    expect(parseAuditFilter(params)).toEqual({});
    expect(parseAuditFilter(new URLSearchParams('limit=201'))).toEqual({});
  });
});

describe('auditUrl maps the page filter onto the API query', () => {
  it('renames run and who, and always sends a page size', () => {
    expect(auditUrl({ run: 'r1', who: 'policy' })).toBe('/api/audit?runId=r1&decidedBy=policy&limit=50');
    expect(auditUrl({ action: 'ask', limit: 5 }, 'c1')).toBe('/api/audit?action=ask&limit=5&cursor=c1');
  });
});

describe('datetime-local inputs', () => {
  it('convert to and from ISO instants in local time', () => {
    const iso = fromLocalInput('2026-05-06T07:08');
    expect(iso).toBe(new Date(2026, 4, 6, 7, 8).toISOString());
    expect(toLocalInput(iso)).toBe('2026-05-06T07:08');
    expect(fromLocalInput('')).toBeUndefined();
    expect(toLocalInput(undefined)).toBe('');
  });
});

describe('formatWait', () => {
  it.each([
    [null, '—'],
    [850, '850 ms'],
    [7_430, '7.4 s'],
    [185_000, '3 min 5 s'],
    [120_000, '2 min'],
  ])('%s ms reads %s', (ms, text) => expect(formatWait(ms)).toBe(text));
});

describe('ruleLabel', () => {
  it('names the rule by id, else by position, with the policy version', () => {
    expect(ruleLabel({ id: 'no-sudo', index: 3, policyVersion: 2 })).toBe('rule no-sudo (policy v2)');
    expect(ruleLabel({ index: 0 })).toBe('rule #1');
    expect(ruleLabel({ tool: 'bash' })).toBeUndefined();
    expect(ruleLabel(null)).toBeUndefined();
  });

  it('says when the rule came from the run’s own permissions or from a grant', () => {
    expect(ruleLabel({ index: 5, permissionsIndex: 0, policyVersion: 2, source: 'run' })).toBe(
      'rule #1 of the run’s permissions',
    );
    expect(ruleLabel({ id: 'ci', index: 5, permissionsIndex: 0, source: 'run' })).toBe(
      'rule ci of the run’s permissions',
    );
    expect(ruleLabel({ index: 0, action: 'allow', source: 'grant' })).toBe('an “always allow” grant');
    expect(ruleLabel({ index: 2, policyVersion: 2, source: 'policy' })).toBe('rule #3 (policy v2)');
  });
});
