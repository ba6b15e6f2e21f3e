// Outside sessions for the gate's tests: a session whose run has a grant allowing `ls` at once.
import type { Queries, RunRow } from '../../../db';
import type { ExternalSessionRef } from '../types';

export async function sessionAllowingLs(
  q: Queries,
  session: Omit<ExternalSessionRef, 'externalId'>,
  externalId: string,
): Promise<{ ref: ExternalSessionRef; run: RunRow }> {
  const ref = { ...session, externalId };
  const run = await q.runs.openExternalRun(ref);
  const rule = { action: 'allow' as const, tool: 'bash', params: { command: 'ls' } };
  await q.grants.createGrant({ rule, scope: 'session', sessionId: run.sessionId, createdBy: 'u' });
  return { ref, run };
}
