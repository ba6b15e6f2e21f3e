// The policy as server state: query keys, fetchers and react-query hooks for the current policy,
// its versions, test-a-call, policy tests and import. Every write sends the version it was based on (If-Match),
// so a save over someone else's change fails with 412 instead of overwriting it.
'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Decision, Mode, Policy, PolicyTestReport } from '../policy/types';
import { ApiError, apiFetch } from './api';

export interface StoredPolicy {
  version: number;
  policy: Policy;
}

export interface PolicyVersion extends StoredPolicy {
  createdBy: string;
  createdAt: string;
  note: string | null;
}

export interface EvaluateInput {
  call: { tool: string; params: Record<string, unknown>; agent?: string };
  mode?: Mode;
  /** Evaluate against this draft instead of the stored policy (admins only). */
  policy?: unknown;
}

/** The decision, and the version of the stored policy it was made against (none for a draft). */
export interface EvaluateResult {
  decision: Decision;
  version?: number;
}

export const policyKeys = {
  all: ['policy'] as const,
  current: () => ['policy', 'current'] as const,
  versions: () => ['policy', 'versions'] as const,
};

const ifMatch = (version: number) => ({ 'If-Match': `"${version}"` });

export const fetchPolicy = () => apiFetch<StoredPolicy>('/api/policy', { cache: 'no-store' });

export const fetchVersions = async () =>
  (await apiFetch<{ items: PolicyVersion[] }>('/api/policy/versions?limit=50', { cache: 'no-store' })).items;

export const savePolicy = ({ policy, version, note }: { policy: Policy; version: number; note?: string }) =>
  apiFetch<StoredPolicy>('/api/policy', {
    method: 'PUT',
    headers: ifMatch(version),
    json: { policy, ...(note ? { note } : {}) },
  });

export const importPolicy = ({ doc, version }: { doc: unknown; version: number }) =>
  apiFetch<StoredPolicy>('/api/policy/import', { method: 'POST', headers: ifMatch(version), json: doc });

export const previewImport = async (doc: unknown) =>
  (await apiFetch<{ policy: Policy }>('/api/policy/import?dryRun=1', { method: 'POST', json: doc })).policy;

/** Runs the tests of `policy` (rules and tests) without saving it (admins only). */
export const runPolicyTests = (policy: Policy) =>
  apiFetch<PolicyTestReport>('/api/policy/tests', { method: 'POST', json: { policy } });

export const evaluateCall = (input: EvaluateInput) =>
  apiFetch<EvaluateResult>('/api/policy/evaluate', { method: 'POST', json: input });

/** The version now in force when `error` is the 412 of a stale save; undefined for other errors. */
export function conflictVersion(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.status !== 412) return undefined;
  const current = error.body.currentVersion;
  return typeof current === 'number' ? current : -1;
}

export function usePolicy() {
  return useQuery({ queryKey: policyKeys.current(), queryFn: fetchPolicy });
}

export function usePolicyVersions() {
  return useQuery({ queryKey: policyKeys.versions(), queryFn: fetchVersions });
}

/** After a successful write: the answer is the new current policy; the history grew. */
function useOnSaved() {
  const client = useQueryClient();
  return (saved: StoredPolicy) => {
    client.setQueryData(policyKeys.current(), saved);
    return client.invalidateQueries({ queryKey: policyKeys.versions() });
  };
}

export function useSavePolicy() {
  const onSaved = useOnSaved();
  return useMutation({ mutationFn: savePolicy, onSuccess: onSaved });
}

export function useImportPolicy() {
  const onSaved = useOnSaved();
  return useMutation({ mutationFn: importPolicy, onSuccess: onSaved });
}

export function usePreviewImport() {
  return useMutation({ mutationFn: previewImport });
}

export function useEvaluateCall() {
  return useMutation({ mutationFn: evaluateCall });
}

export function useRunPolicyTests() {
  return useMutation({ mutationFn: runPolicyTests });
}
