// GET /api/agents: the agent profiles and modes a chat can pick, and the server's model.
import { useQuery } from '@tanstack/react-query';
import type { AgentsResponse } from '@/lib/contract';
import { apiFetch } from '../api';

export const agentKeys = { all: ['agents'] as const };

export function fetchAgents(): Promise<AgentsResponse> {
  return apiFetch<AgentsResponse>('/api/agents');
}

export function useAgents() {
  return useQuery({ queryKey: agentKeys.all, queryFn: fetchAgents, staleTime: 5 * 60_000 });
}
