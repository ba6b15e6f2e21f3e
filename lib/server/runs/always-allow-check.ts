// The live re-check of the approval dialog's inline rule editor: would Always Allow with these
// (edited) rules be accepted, and would the grant cover the call? Answered by the very check a
// decision goes through (checkedAlwaysAllow, as a decider who may edit), so what the editor says
// is what the decision will meet.
import { realpath } from 'node:fs/promises';
import type { Queries } from '../../db';
import type { AlwaysAllowVerdict, Rule } from '../../policy';
import { AppError, toAppError } from '../http/errors';
import { loadPolicy } from '../stores/policy-store';
import { checkedAlwaysAllow } from './always-allow';

export async function checkAlwaysAllowRules(
  q: Queries,
  relayId: string,
  rules: Rule[],
  workspace: string,
): Promise<AlwaysAllowVerdict> {
  const row = await q.relays.getRelay({ id: relayId });
  if (!row) throw new AppError('not_found:relay', 404, 'No such relay');
  if (row.status !== 'pending') throw new AppError('conflict:relay_decided', 409, `The relay is ${row.status}`);
  const root = await realpath(workspace).catch(() => workspace);
  try {
    checkedAlwaysAllow(
      { approved: true, always: true, rule: rules },
      row.request,
      { mayManageGrants: true },
      root,
      (await loadPolicy(q)).policy,
    );
    return { covers: true };
  } catch (error) {
    const refused = toAppError(error);
    if (refused.status !== 422) throw error;
    const field = refused.details?.fields?.[0];
    return { covers: false, reason: field?.message ?? refused.message };
  }
}
