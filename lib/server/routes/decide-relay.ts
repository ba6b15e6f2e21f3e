// POST /api/chat/relay/:relayId: decides a pending approval exactly once. 404 for an unknown
// relay or another session's; 403 for a run the caller may not act on, or an Always Allow for
// everyone by a non-admin; 422 for an Always Allow rule that may not be added (the relay stays
// pending after each refusal); 409 with the recorded decision when it was already decided. Lives in lib/ because two callers
// serve it: the Next route (app/api/chat/relay/[relayId]/route.ts) and the fast path of the
// custom server (fast-routes.ts), so both run this one function.
import { z } from 'zod';
import { can, canDecideRelay, ForbiddenError } from '../../auth';
import { RuleSchema } from '../../policy';
import { readJson } from '../http/body';
import { AppError } from '../http/errors';
import { handle } from '../http/handler';
import type { RouteRequest } from '../http/route-request';

export const RelayDecisionSchema = z.object({
  sessionId: z.string().min(1),
  response: z.object({
    approved: z.boolean(),
    always: z.boolean().optional(),
    reason: z.string().max(2000).optional(),
    rule: z.union([RuleSchema, z.array(RuleSchema).min(1).max(20)]).optional(),
    scope: z.enum(['session', 'global']).optional(),
  }),
});

export type RelayParams = { relayId: string };

export const decideRelay = handle<RelayParams, RouteRequest>(
  'relays:decide:own',
  async (request, { relayId }, rt, me) => {
    const body = await readJson(request, RelayDecisionSchema, rt.config.maxBodyBytes);
    const relay = await rt.runs.relayAccess(relayId);
    if (!relay || relay.sessionId !== body.sessionId)
      throw new AppError('not_found:relay', 404, 'No such relay in this session');
    // 403, not the 404 of an invisible run (docs/AUTH.md): whoever names the relay and its session
    // knows it exists. Checked before resolving, so a refused decision leaves the relay pending.
    if (!canDecideRelay(me, relay))
      throw new ForbiddenError(
        'relays:decide:any',
        'Only the run’s owner, an approver or an admin may decide this relay',
      );
    // Always Allow: only an admin may grant for everyone or edit the suggested rules (always-allow.ts).
    await rt.runs.decideChecked(relayId, body.response, me.username, { mayManageGrants: can(me, 'grants:manage') });
    return Response.json({ success: true });
  },
);
