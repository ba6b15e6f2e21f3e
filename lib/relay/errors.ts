// Typed errors of the relay broker; the server maps them to 404 and 409.
import type { RelayOutcome } from './types';

export class RelayNotFoundError extends Error {
  readonly code = 'not_found:relay';
  constructor(readonly relayId: string) {
    super(`No relay ${relayId}`);
    this.name = 'RelayNotFoundError';
  }
}

export class RelayAlreadyResolvedError extends Error {
  readonly code = 'conflict:relay_resolved';
  constructor(
    readonly relayId: string,
    /** The decision that was recorded first. */
    readonly outcome: RelayOutcome,
  ) {
    super(`Relay ${relayId} is already ${outcome.status}`);
    this.name = 'RelayAlreadyResolvedError';
  }
}

/**
 * An approval that cannot count toward a relay needing several approvers: it came without a person
 * (a handler, Auto-approve, approve-all, a grant), or from someone who already approved it. The
 * relay stays pending.
 */
export class RelayQuorumError extends Error {
  readonly code: 'conflict:relay_quorum' | 'conflict:relay_same_approver';
  constructor(
    readonly relayId: string,
    readonly why: 'needs_people' | 'same_approver',
  ) {
    super(
      why === 'same_approver'
        ? `You have already approved relay ${relayId}: it needs another person's approval`
        : `Relay ${relayId} needs the approval of several people; only a person's approval counts`,
    );
    this.code = why === 'same_approver' ? 'conflict:relay_same_approver' : 'conflict:relay_quorum';
    this.name = 'RelayQuorumError';
  }
}

/**
 * The abort reason of a run stopped here without ending it (its lease was lost, or this process is
 * shutting down): its waits end locally and nothing is settled, because another instance (or this
 * one after a restart) continues the run and its relays stay open.
 */
export class RunDetachedError extends Error {
  readonly code = 'run_detached';
  constructor(message = 'The run continues elsewhere') {
    super(message);
    this.name = 'RunDetachedError';
  }
}

/** True for a RunDetachedError, also one from another copy of this module (matched by code). */
export function isRunDetached(reason: unknown): boolean {
  return (reason as { code?: unknown } | null)?.code === 'run_detached';
}
