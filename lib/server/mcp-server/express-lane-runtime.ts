// The express lane (express-lane.ts) on the server's runtime, for the custom server's fast path
// (routes/fast-routes.ts). Until the runtime is up, and if it failed, every request is handed back.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cachedTokenUser } from '../../auth';
import { getRuntime, type Runtime } from '../runtime';
import { expressMcpCall, type LaneOutcome, type LaneRequest } from './express-lane';
import { mcpDeps } from './runtime-deps';

export function mcpExpressLane(): (
  req: IncomingMessage,
  res: ServerResponse,
  request: LaneRequest,
) => Promise<LaneOutcome> {
  let runtime: Runtime | undefined;
  void getRuntime().then(
    (rt) => void (runtime = rt),
    () => {},
  );
  return async (req, res, request) => {
    const rt = runtime;
    if (!rt) return { served: false };
    return expressMcpCall(req, res, request, {
      endpoint: mcpDeps(rt),
      cachedUser: (authorization) => cachedTokenUser(rt.q, authorization),
      maxBodyBytes: rt.config.maxBodyBytes,
    });
  };
}
