// The express lane (express-lane.ts) on the server's runtime, for the custom server's fast path
// (routes/fast-routes.ts). Until the runtime is up (a first start that failed included), every
// request is handed back.
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
  const look = () =>
    void getRuntime().then(
      (rt) => void (runtime = rt),
      () => {},
    );
  look();
  return async (req, res, request) => {
    const rt = runtime;
    // A first start that failed is tried again by the usual path's getRuntime(): look again.
    if (!rt) return (look(), { served: false });
    return expressMcpCall(req, res, request, {
      endpoint: mcpDeps(rt),
      cachedUser: (authorization) => cachedTokenUser(rt.q, authorization),
      maxBodyBytes: rt.config.maxBodyBytes,
    });
  };
}
