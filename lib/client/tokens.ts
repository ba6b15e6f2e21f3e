// The signed-in user's own API tokens as server state: list, create (the secret comes back once)
// and revoke. A token's purpose: `full` (acts as the user) or `agent` (only asks the gate).
'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TokenPurpose } from '@/lib/contract';
import { apiFetch } from './api';

export interface ApiToken {
  id: string;
  name: string;
  purpose: TokenPurpose;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export interface CreatedToken {
  id: string;
  name: string;
  /** The secret: in this answer only. */
  token: string;
  expiresAt: string | null;
  purpose: TokenPurpose;
}

export const tokenKeys = {
  all: ['tokens'] as const,
  list: () => ['tokens', 'list'] as const,
};

export const fetchTokens = async () =>
  (await apiFetch<{ items: ApiToken[] }>('/api/tokens', { cache: 'no-store' })).items;

/** `expiresInDays` from a form value: blank means "never"; anything else must be a whole number of days. */
export function tokenBody(name: string, days: string): { name: string; expiresInDays?: number } {
  const trimmed = days.trim();
  return trimmed === '' ? { name: name.trim() } : { name: name.trim(), expiresInDays: Number(trimmed) };
}

/** What the token lists call each purpose. */
export const TOKEN_PURPOSE_LABELS: Record<TokenPurpose, string> = {
  full: 'Full: acts as you',
  agent: 'Agent: only asks the gate',
};

export const createToken = (input: { name: string; expiresInDays?: number; purpose?: TokenPurpose }) =>
  apiFetch<CreatedToken>('/api/tokens', { method: 'POST', json: input });
export const revokeToken = (id: string) =>
  apiFetch<{ success: true }>(`/api/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useTokens() {
  return useQuery({ queryKey: tokenKeys.list(), queryFn: fetchTokens });
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSettled: () => client.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSettled: () => client.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
