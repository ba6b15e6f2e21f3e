// A gate for the endpoint's tests: a fixed decision per tool, and asks that wait for a decision
// which the first answer settles (as the relay store does), so the transport, the session codec,
// elicitation and progress are tested with the real SDK client on the other side.
import type {
  AllowedAtOnce,
  ExternalCall,
  ExternalDecideOptions,
  ExternalDecision,
  ExternalSessionRef,
} from '../../external/types';
import type { McpGate } from '../gated-call';

type Answer = { approved: boolean; reason?: string; by: string };

export class TestGate implements McpGate {
  readonly results: Array<{ runId: string; callId: string; tool: string; output: string; isError: boolean }> = [];
  readonly calls: ExternalCall[] = [];
  /** The session each decided call came from (its agent is the name rules see). */
  readonly sessions: ExternalSessionRef[] = [];
  private readonly waiting = new Map<string, (answer: Answer) => void>();
  private readonly decided = new Set<string>();
  private relays = 0;
  private readonly relayListeners: Array<(relayId: string) => void> = [];

  constructor(private readonly rules: Record<string, 'allow' | 'deny' | 'ask'>) {}

  async decide(
    session: ExternalSessionRef,
    call: ExternalCall,
    options: ExternalDecideOptions,
  ): Promise<ExternalDecision> {
    this.calls.push(call);
    this.sessions.push(session);
    const runId = `run-${session.externalId}`;
    const rule = this.rules[call.tool] ?? 'ask';
    if (rule === 'allow')
      return { runId, decision: 'allow', params: call.params, decidedBy: 'policy', reason: 'allowed' };
    if (rule === 'deny') return { runId, decision: 'deny', reason: 'a deny rule matches' };
    if (options.waitForHuman === false) return { runId, decision: 'ask', reason: 'an ask rule matches' };
    const relayId = `relay-${++this.relays}`;
    const answer = new Promise<Answer>((resolve) => this.waiting.set(relayId, resolve));
    options.signal.addEventListener('abort', () =>
      this.answer(relayId, { approved: false, reason: 'Cancelled', by: 'client' }),
    );
    options.onRelay?.(relayId);
    for (const listener of this.relayListeners.splice(0)) listener(relayId);
    const outcome = await answer;
    return outcome.approved
      ? { runId, relayId, decision: 'allow', params: call.params, decidedBy: outcome.by, reason: 'approved' }
      : { runId, relayId, decision: 'deny', reason: outcome.reason ?? 'Denied' };
  }

  /** Calls the express lane's decision allowed (decideAtOnce); what it hands back is not recorded at all. */
  readonly allowedAtOnce: ExternalCall[] = [];
  /** Set: decideAtOnce waits for it before deciding (a client that leaves meanwhile). */
  holdAtOnce: Promise<void> | undefined;
  private readonly claimedAtOnce = new Set<string>();

  async decideAtOnce(session: ExternalSessionRef, call: ExternalCall): Promise<AllowedAtOnce | undefined> {
    await this.holdAtOnce;
    if (this.rules[call.tool] !== 'allow') return undefined;
    this.allowedAtOnce.push(call);
    const runId = `run-${session.externalId}`;
    const key = `${runId}/${call.callId}`;
    const claimed = !this.claimedAtOnce.has(key);
    this.claimedAtOnce.add(key);
    return { runId, decision: 'allow', params: call.params, decidedBy: 'policy', reason: 'allowed', claimed };
  }

  async recordResult(
    runId: string,
    callId: string,
    { tool, output, isError }: { tool: string; output: string; isError: boolean },
  ): Promise<void> {
    this.results.push({ runId, callId, tool, output, isError });
  }

  /** First answer wins; later ones are refused (false), as a decided relay refuses with 409. */
  answer(relayId: string, answer: Answer): boolean {
    if (this.decided.has(relayId)) return false;
    const resolve = this.waiting.get(relayId);
    if (!resolve) return false;
    this.decided.add(relayId);
    resolve(answer);
    return true;
  }

  /** The next relay raised. */
  nextRelay(): Promise<string> {
    return new Promise((resolve) => this.relayListeners.push(resolve));
  }
}
