// The Connect page's agent choice: every agent has a label, and `?agent=` opens the agent it names,
// anything else Claude Code's (so an old link or a typo still shows a working page).
import { describe, expect, it } from 'vitest';
import { CONNECT_AGENT_LABELS, CONNECT_AGENTS, parseConnectAgent } from './connect-agents';

describe('parseConnectAgent', () => {
  it.each([
    ['gemini-cli', 'gemini-cli'],
    ['claude-code', 'claude-code'],
    [['gemini-cli', 'claude-code'], 'gemini-cli'],
    [undefined, 'claude-code'],
    [null, 'claude-code'],
    ['', 'claude-code'],
    ['Gemini-CLI', 'claude-code'],
    ['codex', 'claude-code'],
  ] as const)('%j opens %s', (value, agent) => {
    expect(parseConnectAgent(value as string | string[] | undefined | null)).toBe(agent);
  });

  it('every agent the page offers has a label', () => {
    expect(CONNECT_AGENTS.map((agent) => CONNECT_AGENT_LABELS[agent])).toEqual(['Claude Code', 'Gemini CLI']);
  });
});
