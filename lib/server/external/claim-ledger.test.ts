// The claim ledger alone: a run's stored claims are read once, a call id wins once whatever the
// interleaving, a failed read is retried, and runs are forgotten only while nothing is in flight.
import { describe, expect, it } from 'vitest';
import { ClaimLedger, type ClaimLedgerDeps } from './claim-ledger';

function ledger(stored: Record<string, string[]> = {}, options: { storing?: boolean; maxRuns?: number } = {}) {
  const loads: string[] = [];
  const stores: string[] = [];
  const deps: ClaimLedgerDeps = {
    load: async (runId) => {
      loads.push(runId);
      return stored[runId] ?? [];
    },
    store: async (runId, id) => {
      stores.push(`${runId}/${id}`);
      return true;
    },
    storing: () => options.storing ?? false,
  };
  return { claims: new ClaimLedger(deps, options.maxRuns), loads, stores };
}

describe('a call id is claimed once', () => {
  it('wins only the first time, and never for an id an earlier process stored', async () => {
    const { claims, loads } = ledger({ r1: ['mcp-1'] });
    expect(await claims.claim('r1', 'mcp-1')).toBe(false);
    expect(await claims.claim('r1', 'mcp-2')).toBe(true);
    expect(await claims.claim('r1', 'mcp-2')).toBe(false);
    expect(await claims.claim('r2', 'mcp-2')).toBe(true);
    expect(loads).toEqual(['r1', 'r2']);
  });

  it('concurrent claims of one id (the first read still under way): exactly one wins', async () => {
    const { claims, loads } = ledger();
    const results = await Promise.all(Array.from({ length: 20 }, () => claims.claim('r1', 'mcp-1')));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(loads).toEqual(['r1']);
  });

  it('claimNow decides without waiting once the run is read, the same way claim does; before, nothing', async () => {
    const { claims, loads } = ledger({ r1: ['mcp-1'] });
    expect(claims.claimsKnown('r1')).toBe(false);
    expect(claims.claimNow('r1', 'mcp-2')).toBeUndefined();
    expect(loads).toEqual([]); // nothing read, nothing claimed
    expect(await claims.claim('r1', 'mcp-3')).toBe(true);
    expect(claims.claimsKnown('r1')).toBe(true);
    expect(claims.claimNow('r1', 'mcp-1')).toBe(false); // stored by an earlier process
    expect(claims.claimNow('r1', 'mcp-3')).toBe(false); // claimed just now
    expect(claims.claimNow('r1', 'mcp-2')).toBe(true);
    expect(claims.claimNow('r1', 'mcp-2')).toBe(false);
    expect(await claims.claim('r1', 'mcp-2')).toBe(false);
    expect(loads).toEqual(['r1']);
  });

  it('a claim after a person approved is stored at once and known to later claims', async () => {
    const { claims, stores } = ledger();
    expect(await claims.claimStored('r1', 'mcp-9')).toBe(true);
    expect(stores).toEqual(['r1/mcp-9']);
    expect(await claims.claim('r1', 'mcp-9')).toBe(false);
    expect(await claims.claimStored('r1', 'mcp-9')).toBe(false);
    expect(stores).toEqual(['r1/mcp-9']);
  });

  it('a failed read is not kept: the next claim reads again', async () => {
    let fail = true;
    const claims = new ClaimLedger({
      load: async () => {
        if (fail) throw new Error('database gone');
        return ['mcp-1'];
      },
      store: async () => true,
      storing: () => false,
    });
    await expect(claims.claim('r1', 'mcp-1')).rejects.toThrow('database gone');
    fail = false;
    expect(await claims.claim('r1', 'mcp-1')).toBe(false);
  });
});

describe('memory is bounded', () => {
  it('forgets the run used longest ago beyond the limit, and reads it again when needed', async () => {
    const { claims, loads } = ledger({}, { maxRuns: 2 });
    await claims.claim('a', '1');
    await claims.claim('b', '1');
    await claims.claim('a', '2'); // a is now the most recent
    await claims.claim('c', '1'); // b goes
    await claims.claim('a', '3');
    expect(loads).toEqual(['a', 'b', 'c']);
    await claims.claim('b', '2');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('forgets nothing while a deferred claim may still be on its way to the database', async () => {
    const { claims, loads } = ledger({}, { maxRuns: 1, storing: true });
    await claims.claim('a', '1');
    await claims.claim('b', '1');
    // Read back from the database now, `a` could miss its claim in flight: it is kept instead.
    expect(await claims.claim('a', '1')).toBe(false);
    expect(loads).toEqual(['a', 'b']);
  });
});
