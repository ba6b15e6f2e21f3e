// Public surface of the relay layer: the broker contract and the in-memory implementation.
export * from './types';
export { RelayAlreadyResolvedError, RelayNotFoundError } from './errors';
export { MemoryRelayBroker } from './memory';
