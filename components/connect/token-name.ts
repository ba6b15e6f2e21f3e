// Tokens made on the Connect page are named after the agent they were made for, so the page can
// list them again (whichever agent is chosen: a token works for every agent).
import { CONNECT_AGENT_LABELS, CONNECT_AGENTS, type ConnectAgent } from '@/lib/contract';

export function connectTokenName(agent: ConnectAgent, now: Date = new Date()): string {
  return `${CONNECT_AGENT_LABELS[agent]} ${now.toISOString().slice(0, 16).replace('T', ' ')}`;
}

export function isConnectTokenName(name: string): boolean {
  return CONNECT_AGENTS.some((agent) => name.startsWith(`${CONNECT_AGENT_LABELS[agent]} `));
}
