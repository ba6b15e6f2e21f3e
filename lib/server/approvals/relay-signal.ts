// "Something about the relays changed": a relay was raised or settled here, or (several instances)
// announced by another instance. The approvals inbox and the header's count listen through
// GET /api/relays/stream and re-read GET /api/relays, which applies who may see what; the signal
// itself carries nothing, so a stream tells nobody anything about relays they may not decide.
export class RelaySignal {
  private readonly listeners = new Set<() => void>();
  private pending: ReturnType<typeof setTimeout> | undefined;

  /** Bursts (approve-all, a busy run) are coalesced into one notice per `coalesceMs`. */
  constructor(private readonly coalesceMs = 100) {}

  notify(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      for (const listener of [...this.listeners]) listener();
    }, this.coalesceMs);
    this.pending.unref?.();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
