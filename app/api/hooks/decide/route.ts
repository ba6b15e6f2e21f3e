// POST /api/hooks/decide: any agent framework asks the gate about one call (contract/hooks.ts);
// held while a person decides when the policy asks, unless `wait: false`.
import { randomUUID } from 'node:crypto';
import { DecideRequestSchema, type DecideResponse } from '@/lib/contract';
import { readJson } from '@/lib/server/http/body';
import { agentRoute } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = agentRoute('runs:start', async (request, _params, rt, user) => {
  const body = await readJson(request, DecideRequestSchema, rt.config.maxBodyBytes);
  const agent = body.agent ?? 'hook';
  const decided = await rt.external.decide(
    { owner: user.id, source: 'hook', agent, externalId: body.session ?? randomUUID(), title: body.cwd ?? agent },
    {
      tool: body.tool,
      params: body.params,
      ...(body.callId ? { callId: body.callId } : {}),
      ...(body.cwd ? { workspace: body.cwd } : {}),
      ...(body.home ? { homeDir: body.home } : {}),
    },
    {
      signal: request.signal,
      waitForHuman: body.wait !== false,
      ...(body.deadline ? { timeoutS: body.deadline } : {}),
    },
  );
  const response: DecideResponse = {
    decision: decided.decision,
    reason: decided.reason,
    runId: decided.runId,
    ...(decided.relayId ? { relayId: decided.relayId } : {}),
    ...(decided.decision === 'allow' ? { params: decided.params } : {}),
  };
  return Response.json(response);
});
