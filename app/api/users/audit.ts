// User and token changes go to the audit trail with the acting admin as `decidedBy`, so "who gave
// bob the approver role" has an answer. Never secrets: no passwords, tokens or hashes.
import type { AuthUser } from '@/lib/auth';
import type { Runtime } from '@/lib/server/runtime';

export type AccountAuditKind = 'user_created' | 'user_changed' | 'user_password_reset' | 'user_password_changed' | 'user_login_link' | 'user_sessions_ended' | 'token_created' | 'token_revoked';

export async function auditAccount(rt: Runtime, actor: AuthUser, kind: AccountAuditKind, details: Record<string, unknown>): Promise<void> {
  await rt.q.audit.recordAudit({ kind, decidedBy: actor.username, details });
}
