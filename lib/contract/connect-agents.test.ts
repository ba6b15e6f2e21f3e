// The Connect page's agent choice: every agent has a label, and `?agent=` opens the agent it names,
// anything else Claude Code's (so an old link or a typo still shows a working page).
import { describe, expect, it } from 'vitest';
import { CONNECT_AGENT_LABELS, CONNECT_AGENTS, connectAgentNames, parseConnectAgent } from './connect-agents';

describe('parseConnectAgent', () => {
  it.each([
    ['gemini-cli', 'gemini-cli'],
    ['claude-code', 'claude-code'],
    ['codex', 'codex'],
    [['codex'], 'codex'],
    [['gemini-cli', 'claude-code'], 'gemini-cli'],
    [undefined, 'claude-code'],
    [null, 'claude-code'],
    ['', 'claude-code'],
    ['Gemini-CLI', 'claude-code'],
    ['Codex', 'claude-code'],
    ['codex-cli', 'claude-code'],
  ] as const)('%j opens %s', (value, agent) => {
    expect(parseConnectAgent(value as string | string[] | undefined | null)).toBe(agent);
  });

  it('every agent the page offers has a label', () => {
    expect(CONNECT_AGENTS.map((agent) => CONNECT_AGENT_LABELS[agent])).toEqual([
      'Claude Code',
      'Gemini CLI',
      'Codex CLI',
    ]);
  });
});

describe('connectAgentNames', () => {
  it('lists every agent the page offers, for a sentence', () => {
    expect(connectAgentNames('and')).toBe('Claude Code, Gemini CLI and Codex CLI');
    expect(connectAgentNames('or')).toBe('Claude Code, Gemini CLI or Codex CLI');
  });
});
