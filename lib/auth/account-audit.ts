// Account changes (users, passwords, sign-in links, sessions, API tokens) go to the audit trail
// with whoever made them as `decidedBy`, in the change's own transaction: a change is never
// stored without its record, nor a record without its change. Never secrets: the details are the
// caller's choice, and callers pass no passwords, tokens or hashes.
import type { Queries } from '../db';

export type AccountAuditKind =
  | 'user_created'
  | 'user_changed'
  | 'user_password_reset'
  | 'user_password_changed'
  | 'user_login_link'
  | 'user_sessions_ended'
  | 'token_created'
  | 'token_revoked';

/** The audit row of one account change; `details` sees the change's result (undefined: nothing to record). */
export interface AccountAudit<R> {
  /** Who made the change (a username). */
  by: string;
  kind: AccountAuditKind;
  details(result: R): Record<string, unknown> | undefined;
}

/** Runs `change`, and with `audit` writes its row in the same transaction. */
export async function withAccountAudit<R>(
  q: Queries,
  audit: AccountAudit<R> | undefined,
  change: (q: Queries) => Promise<R>,
): Promise<R> {
  if (!audit) return change(q);
  return q.transaction(async (tx) => {
    const result = await change(tx);
    const details = audit.details(result);
    if (details) await tx.audit.recordAudit({ kind: audit.kind, decidedBy: audit.by, details });
    return result;
  });
}
