// A small typed client for POST /api/hooks/decide: any agent framework asks Gatehouse about a call
// before running it, and (by default) waits while a person decides in the browser. Fail closed:
// anything but a well-formed `allow` from Gatehouse (an error status, a dropped connection, a body
// that does not parse) is a denial, never an allow.
import { DecideResponseSchema, type DecideRequest, type DecideResponse } from '../../lib/contract';

export interface GatehouseDecideOptions {
  /** The server, e.g. http://127.0.0.1:3000. */
  url: string;
  /** An API token (Users page -> your API tokens). */
  token: string;
  /** The agent's name as rules see it (`agent` on a rule). */
  agent?: string;
  /** The agent's own session id: grants ("Always Allow") apply within it. */
  session?: string;
  /** Where relative paths resolve (an absolute directory). */
  cwd?: string;
  /** The agent user's home, which `~/` in rules means (an absolute directory; default the server's). */
  home?: string;
  /** The approval deadline in seconds. */
  deadline?: number;
  /** For tests and custom transports. */
  fetch?: typeof fetch;
}

export type Decide = (call: Pick<DecideRequest, 'tool' | 'params' | 'callId'>) => Promise<DecideResponse>;

export function gatehouseDecide(options: GatehouseDecideOptions): Decide {
  const send = options.fetch ?? fetch;
  const endpoint = `${options.url.replace(/\/+$/, '')}/api/hooks/decide`;
  return async (call) => {
    const body: DecideRequest = {
      ...call,
      ...(options.agent ? { agent: options.agent } : {}),
      ...(options.session ? { session: options.session } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.home ? { home: options.home } : {}),
      ...(options.deadline ? { deadline: options.deadline } : {}),
    };
    try {
      const response = await send(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json: unknown = await response.json().catch(() => undefined);
      if (!response.ok) return refused(`Gatehouse answered ${response.status}: ${messageOf(json)}`);
      const parsed = DecideResponseSchema.safeParse(json);
      return parsed.success ? parsed.data : refused('Gatehouse sent an answer this client cannot read');
    } catch (error) {
      return refused(`Gatehouse is unreachable: ${(error as Error).message}`);
    }
  };
}

function refused(reason: string): DecideResponse {
  return { decision: 'deny', reason, runId: '' };
}

function messageOf(json: unknown): string {
  const error = (json as { error?: { message?: unknown } } | undefined)?.error;
  return typeof error?.message === 'string' ? error.message : 'no reason given';
}
