// Always Allow grants as server state: the live list and revoking one (the next matching call
// asks again).
'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Grant } from '@/lib/contract';
import { apiFetch } from './api';

export const grantKeys = {
  all: ['grants'] as const,
  list: () => ['grants', 'list'] as const,
};

export const fetchGrants = async () => (await apiFetch<{ items: Grant[] }>('/api/grants', { cache: 'no-store' })).items;

export const revokeGrant = (id: string) =>
  apiFetch<{ success: true }>(`/api/grants/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useGrants() {
  return useQuery({ queryKey: grantKeys.list(), queryFn: fetchGrants });
}

export function useRevokeGrant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeGrant,
    onSettled: () => client.invalidateQueries({ queryKey: grantKeys.all }),
  });
}
