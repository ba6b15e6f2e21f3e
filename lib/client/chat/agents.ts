// GET /api/agents: the agent profiles and modes a chat can pick, and the server's model.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api';

export interface AgentProfileInfo {
  name: string;
  description: string;
  tools: string[];
}

export interface AgentsResponse {
  model: string;
  defaultAgent: string;
  agents: AgentProfileInfo[];
  modes: Array<{ value: string; label: string }>;
}

export const agentKeys = { all: ['agents'] as const };

export function fetchAgents(): Promise<AgentsResponse> {
  return apiFetch<AgentsResponse>('/api/agents');
}

export function useAgents() {
  return useQuery({ queryKey: agentKeys.all, queryFn: fetchAgents, staleTime: 5 * 60_000 });
}
