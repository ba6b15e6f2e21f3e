import { describe, expect, it } from 'vitest';
import { headlineOf, riskLabel } from './approval-headline';

describe('the approval headline says what the call does', () => {
  it.each([
    [{ tool: 'bash', params: { command: 'ls -la' } }, 'bash wants to run ls -la'],
    [{ tool: 'write_file', params: { path: 'notes.md', content: 'x' } }, 'write_file wants to change notes.md'],
    [{ tool: 'fetch_url', params: { url: 'https://example.com/' } }, 'fetch_url wants to fetch https://example.com/'],
    [{ tool: 'custom_tool', params: { x: 1 } }, 'custom_tool wants to be used'],
    // Two commands never read as one command with arguments.
    [{ tool: 'bash', params: { command: 'ls\nrm -rf ~' } }, 'bash wants to run ls ⏎ rm -rf ~'],
    [{ tool: 'bash', params: { command: 'ls\r\nrm -rf ~' } }, 'bash wants to run ls ⏎ rm -rf ~'],
  ])('%o', (relay, text) => {
    const h = headlineOf(relay);
    expect([h.tool, h.verb, h.object].filter(Boolean).join(' ')).toBe(text);
  });

  it('a long value is clipped (the parameters show it whole)', () => {
    expect(headlineOf({ tool: 'bash', params: { command: 'x'.repeat(500) } }).object).toHaveLength(161);
  });

  it('risk labels describe the call, not only the tool’s class', () => {
    expect(riskLabel({ tool: 'bash', risk: 'write' })).toMatch(/shell command/);
    expect(riskLabel({ tool: 'fetch_url', risk: 'read_only' })).toMatch(/network/);
    expect(riskLabel({ tool: 'custom', risk: 'destructive' })).toBe('Can delete or overwrite');
  });
});
