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
