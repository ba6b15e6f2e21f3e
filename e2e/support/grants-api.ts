// The Always Allow grants through the HTTP API (GET /api/grants, DELETE /api/grants/:id), for UI
// specs that check what a dialog stored and remove what they made.
import { expect, type APIRequestContext } from '@playwright/test';
import type { Rule } from '../../lib/policy/types';

export interface StoredGrant {
  id: string;
  rule: Rule;
  scope: 'session' | 'global';
  sessionId: string | null;
  createdBy: string;
}

/** The live grants: a session's plus the global ones, or every one without `sessionId`. */
export async function listGrants(request: APIRequestContext, sessionId?: string): Promise<StoredGrant[]> {
  const response = await request.get(
    sessionId ? `/api/grants?sessionId=${encodeURIComponent(sessionId)}` : '/api/grants',
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: StoredGrant[] }).items;
}

export async function revokeGrant(request: APIRequestContext, id: string): Promise<void> {
  const response = await request.delete(`/api/grants/${encodeURIComponent(id)}`);
  expect(response.status(), await response.text()).toBe(200);
}
