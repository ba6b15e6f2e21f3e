// The outside agents the Connect page sets up, their names as shown, and the `?agent=` of its URL
// (an unknown or missing value is Claude Code's, so an old link still opens the page). The values
// are the agents' names on their runs (`runs.agent`), which the page's session list shows.
import { z } from 'zod';

export const CONNECT_AGENTS = ['claude-code', 'gemini-cli', 'codex'] as const;
export const ConnectAgentSchema = z.enum(CONNECT_AGENTS);
export type ConnectAgent = z.infer<typeof ConnectAgentSchema>;

export const CONNECT_AGENT_LABELS: Record<ConnectAgent, string> = {
  'claude-code': 'Claude Code',
  'gemini-cli': 'Gemini CLI',
  codex: 'Codex CLI',
};

/** Every agent's label in one phrase ("A, B and C"), so the page's prose names each one it offers. */
export function connectAgentNames(conjunction: 'and' | 'or'): string {
  const labels = CONNECT_AGENTS.map((agent) => CONNECT_AGENT_LABELS[agent]);
  return labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} ${conjunction} ${labels.at(-1)}`;
}

/** The agent a `?agent=` value names; anything else is Claude Code. */
export function parseConnectAgent(value: string | string[] | undefined | null): ConnectAgent {
  const parsed = ConnectAgentSchema.safeParse(Array.isArray(value) ? value[0] : value);
  return parsed.success ? parsed.data : 'claude-code';
}
