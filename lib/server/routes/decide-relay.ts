// POST /api/chat/relay/:relayId: decides a pending approval exactly once. 404 for an unknown
// relay or another session's; 403 for a run the caller may not act on, or an Always Allow for
// everyone by a non-admin; 422 for an Always Allow rule that may not be added (the relay stays
// pending after each refusal); 409 with the recorded decision when it was already decided. An
// approval may carry edited `params` (400 by field when the tool's schema refuses them, 409 when a
// deny rule matches them); a relay that needs several approvers answers `pending: true` with the
// approvals so far until the last one (403 for a role the rule does not name, 409 for a second
// approval by the same person). Lives in lib/ because two callers
// serve it: the Next route (app/api/chat/relay/[relayId]/route.ts) and the fast path of the
// custom server (fast-routes.ts), so both run this one function.
import { z } from 'zod';
import { can, canDecideRelay, ForbiddenError } from '../../auth';
import { RuleSchema } from '../../policy';
import { readJson } from '../http/body';
import { AppError } from '../http/errors';
import { handle } from '../http/handler';
import type { RouteRequest } from '../http/route-request';

export const RelayDecisionSchema = z
  .object({
    sessionId: z.string().min(1),
    response: z.object({
      approved: z.boolean(),
      always: z.boolean().optional(),
      reason: z.string().max(2000).optional(),
      rule: z.union([RuleSchema, z.array(RuleSchema).min(1).max(20)]).optional(),
      scope: z.enum(['session', 'global']).optional(),
      /** Edit, then approve: the parameters to run with (checked against the tool's schema and the policy). */
      params: z.record(z.string(), z.unknown()).optional(),
      /** Refused by name: an edit changes the parameters only, never which tool runs. */
      tool: z.never({ error: 'the tool of a call cannot be changed; edit its params' }).optional(),
    }),
  })
  .superRefine((body, ctx) => {
    if (body.response.params !== undefined && !body.response.approved)
      ctx.addIssue({
        code: 'custom',
        path: ['response', 'params'],
        message: 'edited params come with an approval only',
      });
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
    const { tool: _tool, ...response } = body.response;
    const decided = await rt.runs.decideChecked(
      relayId,
      response,
      me.username,
      { mayManageGrants: can(me, 'grants:manage') },
      me.role,
    );
    // A relay that needs several approvers stays pending after all but the last approval.
    if (decided.status === 'partial') {
      const { approvals, needed } = decided.progress;
      return Response.json({ success: true, pending: true, approvals, needed, remaining: needed - approvals.length });
    }
    return Response.json({ success: true });
  },
);
