// Public surface of the relay layer: the broker contract, the broker over any RelayStore, and the
// in-memory store and broker.
export * from './types';
export {
  isRunDetached,
  RelayAlreadyResolvedError,
  RelayNotFoundError,
  RelayQuorumError,
  RunDetachedError,
} from './errors';
export type { RelayStore, ResolveResult } from './store';
export { DurableRelayBroker, type DurableBrokerOptions } from './durable';
export { MemoryRelayBroker, MemoryRelayStore } from './memory';
