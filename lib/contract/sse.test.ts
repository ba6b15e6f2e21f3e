import { expect, it } from 'vitest';
import { formatSse, parseSseBlock } from './sse';

it('reads back what the server writes, and skips heartbeats', () => {
  const written = formatSse({ id: 7, event: 'relay', data: { relay: { id: 'r1' }, note: 'two\nlines' } });
  expect(parseSseBlock(written.trimEnd())).toEqual({
    id: 7,
    event: 'relay',
    data: { relay: { id: 'r1' }, note: 'two\nlines' },
  });
  expect(parseSseBlock(': heartbeat')).toBeUndefined();
});
