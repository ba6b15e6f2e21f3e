// What the event-stream tests share: a reader that looks at what has arrived so far, and a guard
// whose checks the test answers.
import type { StreamGuard } from './sse';

/** Reads the stream chunk by chunk, so a test can look at what has arrived so far. */
export function reader(response: Response) {
  const stream = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  // A read that has not settled yet is kept, so no chunk is lost between two looks.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  const read = () => (pending ??= stream.read());
  return {
    /** Everything received so far, after letting the stream deliver what it has queued. */
    async received(): Promise<string> {
      for (;;) {
        const chunk = await Promise.race([
          read(),
          new Promise<'idle'>((resolve) => setImmediate(() => resolve('idle'))),
        ]);
        if (chunk === 'idle') return text;
        pending = undefined;
        if (chunk.done) return text;
        text += decoder.decode(chunk.value, { stream: true });
      }
    },
    /** Reads to the end; resolves with everything, or never when the stream stays open. */
    async rest(): Promise<string> {
      for (;;) {
        const chunk = await read();
        pending = undefined;
        if (chunk.done) return text;
        text += decoder.decode(chunk.value, { stream: true });
      }
    },
    cancel: () => stream.cancel(),
  };
}

/** A guard whose checks the test answers one by one, and whose change announcements it makes. */
export function fakeGuard() {
  const answers: ((ok: boolean | Error) => void)[] = [];
  const listeners = new Set<() => void>();
  const guard: StreamGuard = {
    check: () =>
      new Promise<boolean>((resolve, reject) => answers.push((ok) => (ok instanceof Error ? reject(ok) : resolve(ok)))),
    watch: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    guard,
    /** Checks asked for and not answered yet. */
    pending: () => answers.length,
    answer: async (ok: boolean | Error) => {
      answers.shift()!(ok);
      await new Promise((resolve) => setImmediate(resolve));
    },
    announce: () => [...listeners].forEach((listener) => listener()),
    watching: () => listeners.size,
  };
}
