// One wrapper for every route handler: get the runtime, run the handler, and turn any error into
// the app's error response. Route files stay "parse -> call lib -> shape the response".
import { toResponse } from './errors';
import { getRuntime, type Runtime } from './runtime';

type Context<P> = { params: Promise<P> };

export function handle<P = Record<string, never>>(fn: (request: Request, params: P, rt: Runtime) => Promise<Response>) {
  return async (request: Request, context: Context<P>): Promise<Response> => {
    try {
      const rt = await getRuntime();
      return await fn(request, await context.params, rt);
    } catch (error) {
      return toResponse(error);
    }
  };
}

/** Query-string parameters parsed with a zod-like schema. */
export function searchParams(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
