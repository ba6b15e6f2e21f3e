import { describe, expect, it } from 'vitest';
import { followRelayChanges, RETRY_MAX_MS, RETRY_MS, titleWithCount, type ChangeSource } from './approvals';

describe('the tab title shows the pending count', () => {
  it.each([
    ['Rules · Gatehouse', 3, '(3) Rules · Gatehouse'],
    ['(3) Rules · Gatehouse', 1, '(1) Rules · Gatehouse'],
    ['(3) Rules · Gatehouse', 0, 'Rules · Gatehouse'],
    ['Gatehouse', 150, '(99+) Gatehouse'],
    ['(99+) Gatehouse', 2, '(2) Gatehouse'],
  ])('%s with %d pending is %s', (title, count, expected) => {
    expect(titleWithCount(title, count)).toBe(expected);
  });
});

describe('following the relay stream', () => {
  /** A stand-in EventSource whose events the test fires. */
  class FakeSource implements ChangeSource {
    readyState = 0;
    closed = false;
    private readonly listeners = new Map<string, Array<() => void>>();
    addEventListener(type: string, listener: () => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    fire(type: 'changed' | 'open' | 'error', readyState = this.readyState) {
      this.readyState = readyState;
      for (const listener of this.listeners.get(type) ?? []) listener();
    }
    close() {
      this.closed = true;
      this.readyState = 2;
    }
  }

  function follow() {
    const sources: FakeSource[] = [];
    const pending: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
    let changes = 0;
    const stop = followRelayChanges(
      () => {
        const source = new FakeSource();
        sources.push(source);
        return source;
      },
      () => void changes++,
      {
        set: (fn, ms) => {
          const timer = { fn, ms, cleared: false };
          pending.push(timer);
          return timer;
        },
        clear: (handle) => void ((handle as { cleared: boolean }).cleared = true),
      },
    );
    /** Runs the one timer due, and says after how long it was due. */
    const elapse = () => {
      const timer = pending.shift()!;
      expect(timer.cleared).toBe(false);
      timer.fn();
      return timer.ms;
    };
    return { sources, pending, elapse, stop, changes: () => changes };
  }

  it('re-reads on every announced change and on every (re)connect', () => {
    const { sources, changes } = follow();
    sources[0]!.fire('open', 1);
    sources[0]!.fire('changed');
    sources[0]!.fire('changed');
    expect(changes()).toBe(3);
  });

  it('leaves a dropped connection to EventSource, which reconnects by itself', () => {
    const { sources, pending } = follow();
    sources[0]!.fire('open', 1);
    sources[0]!.fire('error', 0); // CONNECTING: EventSource retries on its own
    expect(pending).toHaveLength(0);
    expect(sources).toHaveLength(1);
  });

  it('opens a new stream after a refusal (a 429 past the stream cap), waiting longer each time, until one opens', () => {
    const { sources, pending, elapse } = follow();
    sources[0]!.fire('error', 2);
    sources[0]!.fire('error', 2); // a second report of the same refusal schedules nothing more
    expect(pending).toHaveLength(1);
    expect(elapse()).toBe(RETRY_MS);
    expect(sources).toHaveLength(2);
    sources[1]!.fire('error', 2);
    expect(elapse()).toBe(RETRY_MS * 2);
    sources[2]!.fire('error', 2);
    expect(elapse()).toBe(RETRY_MS * 4);
    // Opened: the next refusal starts from the first wait again.
    sources[3]!.fire('open', 1);
    sources[3]!.fire('error', 2);
    expect(elapse()).toBe(RETRY_MS);
  });

  it('never waits longer than RETRY_MAX_MS', () => {
    const { sources, elapse } = follow();
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      sources.at(-1)!.fire('error', 2);
      waits.push(elapse());
    }
    expect(Math.max(...waits)).toBe(RETRY_MAX_MS);
  });

  it('stopping closes the stream and cancels a pending reconnect', () => {
    const { sources, pending, stop } = follow();
    sources[0]!.fire('error', 2);
    stop();
    expect(sources[0]!.closed).toBe(true);
    expect(pending[0]!.cleared).toBe(true);
  });
});
