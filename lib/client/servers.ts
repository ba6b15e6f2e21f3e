// Upstream MCP servers as server state (admins only): the list, add or replace, remove, test,
// accept a changed tool definition. Every change refreshes the list.
'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './api';
import type { McpServersResponse } from '@/lib/contract';

export const serverKeys = { list: () => ['mcp-servers'] as const };

const serverUrl = (name: string) => `/api/servers/${encodeURIComponent(name)}`;

export function useServers() {
  return useQuery({
    queryKey: serverKeys.list(),
    queryFn: () => apiFetch<McpServersResponse>('/api/servers', { cache: 'no-store' }),
  });
}

function useServerMutation<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => client.invalidateQueries({ queryKey: serverKeys.list() }) });
}

/** `add` never replaces a server of that name; `edit` never re-creates one removed meanwhile. */
export const usePutServer = () =>
  useServerMutation(
    ({ name, entry, intent }: { name: string; entry: Record<string, unknown>; intent: 'add' | 'edit' }) =>
      apiFetch<{ name: string }>(serverUrl(name), {
        method: 'PUT',
        json: entry,
        headers: intent === 'add' ? { 'If-None-Match': '*' } : { 'If-Match': '*' },
      }),
  );
export const useRemoveServer = () =>
  useServerMutation((name: string) => apiFetch<null>(serverUrl(name), { method: 'DELETE' }));
export const useTestServer = () =>
  useServerMutation((name: string) =>
    apiFetch<{ state: string; error?: string; tools: number }>(`${serverUrl(name)}/test`, { method: 'POST' }),
  );
export const useAcceptChange = () =>
  useServerMutation(({ server, tool, digest }: { server: string; tool: string; digest: string }) =>
    apiFetch<{ accepted: true }>(`${serverUrl(server)}/accept`, { method: 'POST', json: { tool, digest } }),
  );
