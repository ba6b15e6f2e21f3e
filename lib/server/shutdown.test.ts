import { describe, expect, it } from 'vitest';
import { installShutdown, shutdownRuntime } from './shutdown';

function fakeRuntime(order: string[], { hang = false } = {}) {
  return {
    runs: { shutdown: async () => (order.push('runs'), hang ? new Promise<string[]>(() => undefined) : ['r1', 'r2']) },
    bus: { close: async () => void order.push('bus') },
    database: { close: async () => void order.push('database') },
  } as never;
}

function signals() {
  const handlers = new Map<string, () => void>();
  return {
    on: (signal: string, handler: () => void) => void handlers.set(signal, handler),
    send: (signal: string) => handlers.get(signal)?.(),
  };
}

describe('shutdown', () => {
  it('hands the runs over, then closes the bus, then the database', async () => {
    const order: string[] = [];
    expect(await shutdownRuntime(fakeRuntime(order))).toEqual(['r1', 'r2']);
    expect(order).toEqual(['runs', 'bus', 'database']);
  });

  it('closes the upstream MCP servers once the runs are handed over, before the database (a failure does not stop it)', async () => {
    const order: string[] = [];
    const runtime = {
      ...(fakeRuntime(order) as object),
      mcp: { close: async () => (order.push('mcp'), Promise.reject(new Error('already gone'))) },
    } as never;
    expect(await shutdownRuntime(runtime)).toEqual(['r1', 'r2']);
    expect(order).toEqual(['runs', 'mcp', 'bus', 'database']);
  });

  it('on SIGTERM it shuts down once and, when Next leaves the signals to it, exits with 143', async () => {
    const order: string[] = [];
    const exits: number[] = [];
    const logs: string[] = [];
    const { on, send } = signals();
    let exited!: () => void;
    const done = new Promise<void>((resolve) => (exited = resolve));
    installShutdown({
      runtime: async () => fakeRuntime(order),
      manual: true,
      on,
      exit: (code) => (exits.push(code), exited()),
      log: (m) => void logs.push(m),
    });
    send('SIGTERM');
    send('SIGINT');
    await done;
    expect(order).toEqual(['runs', 'bus', 'database']);
    expect(exits).toEqual([143]);
    expect(logs).toEqual(['[gatehouse] SIGTERM: stopped; 2 run(s) handed over']);
  });

  it('does not exit by itself when Next handles the signal; exits after the timeout when a step hangs', async () => {
    const { on, send } = signals();
    const exits: number[] = [];
    const logs: string[] = [];
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    installShutdown({
      runtime: async () => fakeRuntime([], { hang: true }),
      manual: false,
      timeoutMs: 20,
      on,
      exit: (code) => void exits.push(code),
      log: (m) => (logs.push(m), finished()),
    });
    send('SIGINT');
    await done;
    expect(logs[0]).toContain('did not finish in 20 ms');
    expect(exits).toEqual([]);
  });
});
