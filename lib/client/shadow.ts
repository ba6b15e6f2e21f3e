// The shadow policy as server state: the shadow, its differences, and set / clear / promote.
// Promote sends the live version on screen (If-Match), like every policy write.
'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Shadow, ShadowDiffs } from '../contract';
import { apiFetch } from './api';
import { policyKeys, type StoredPolicy } from './policy';

export const shadowKeys = {
  all: ['shadow'] as const,
  current: () => ['shadow', 'current'] as const,
  diffs: (id: string) => ['shadow', 'diffs', id] as const,
};

export const fetchShadow = async () =>
  (await apiFetch<{ shadow: Shadow | null }>('/api/policy/shadow', { cache: 'no-store' })).shadow;

export const fetchShadowDiffs = (id: string) =>
  apiFetch<ShadowDiffs>(`/api/policy/shadow/diffs?id=${encodeURIComponent(id)}&limit=20`, { cache: 'no-store' });

export const setShadow = async ({ doc, note }: { doc: unknown; note?: string }) =>
  (
    await apiFetch<{ shadow: Shadow }>('/api/policy/shadow', {
      method: 'PUT',
      json: note ? { policy: doc, note } : { policy: doc },
    })
  ).shadow;

export const clearShadow = (id: string) =>
  apiFetch<void>(`/api/policy/shadow?id=${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Promotes the shadow the admin reviewed (`id`: 404 when another was set since) over the live `version`. */
export const promoteShadow = ({ version, id }: { version: number; id: string }) =>
  apiFetch<StoredPolicy>(`/api/policy/shadow/promote?id=${encodeURIComponent(id)}`, {
    method: 'POST',
    headers: { 'If-Match': `"${version}"` },
  });

export function useShadow() {
  return useQuery({ queryKey: shadowKeys.current(), queryFn: fetchShadow });
}

export function useShadowDiffs(id: string | undefined) {
  return useQuery({
    queryKey: shadowKeys.diffs(id ?? ''),
    queryFn: () => fetchShadowDiffs(id!),
    enabled: id !== undefined,
  });
}

export function useSetShadow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setShadow,
    onSuccess: (shadow) => client.setQueryData(shadowKeys.current(), shadow),
  });
}

export function useClearShadow() {
  const client = useQueryClient();
  return useMutation({ mutationFn: clearShadow, onSuccess: () => client.setQueryData(shadowKeys.current(), null) });
}

/** After a promotion the live policy is the answer, the history grew, and there is no shadow. */
export function usePromoteShadow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: promoteShadow,
    onSuccess: async (saved) => {
      client.setQueryData(policyKeys.current(), saved);
      client.setQueryData(shadowKeys.current(), null);
      await client.invalidateQueries({ queryKey: policyKeys.versions() });
    },
  });
}
