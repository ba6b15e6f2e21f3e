import { describe, expect, it } from 'vitest';
import { titleWithCount } from './approvals';

describe('the tab title shows the pending count', () => {
  it.each([
    ['Rules · Gatehouse', 3, '(3) Rules · Gatehouse'],
    ['(3) Rules · Gatehouse', 1, '(1) Rules · Gatehouse'],
    ['(3) Rules · Gatehouse', 0, 'Rules · Gatehouse'],
    ['Gatehouse', 150, '(99+) Gatehouse'],
    ['(99+) Gatehouse', 2, '(2) Gatehouse'],
  ])('%s with %d pending is %s', (title, count, expected) => {
    expect(titleWithCount(title, count)).toBe(expected);
  });
});
