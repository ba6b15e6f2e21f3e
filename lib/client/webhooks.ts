// Webhook endpoints as server state (admins): list, register (the secret comes back once),
// remove, and each endpoint's delivery log (polled while open).
'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from '@/lib/contract';
import { apiFetch } from './api';

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => ['webhooks', 'list'] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
};

export function useWebhooks() {
  return useQuery({
    queryKey: webhookKeys.list(),
    queryFn: async () => (await apiFetch<{ items: WebhookEndpoint[] }>('/api/webhooks', { cache: 'no-store' })).items,
  });
}

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (json: { url: string; events: string[]; format: string }) =>
      apiFetch<CreatedWebhookEndpoint>('/api/webhooks', { method: 'POST', json }),
    onSettled: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/api/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useDeliveries(id: string) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id),
    queryFn: async () =>
      (
        await apiFetch<{ items: WebhookDelivery[] }>(`/api/webhooks/${encodeURIComponent(id)}/deliveries?limit=20`, {
          cache: 'no-store',
        })
      ).items,
    refetchInterval: 3_000,
  });
}
