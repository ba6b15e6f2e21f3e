// Tool names are `mcp__<server>__<tool>`: every server name the config accepts must parse back to
// itself and its tool, or a call could be routed to another server than the one that listed it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServerNameSchema } from './config';
import { mcpToolName, parseMcpToolName } from './naming';

const accepted = (name: string) => ServerNameSchema.safeParse(name).success;

describe('naming: mcp__<server>__<tool> names one server and one tool', () => {
  it('names that would parse as another server are refused: a leading or trailing _, or __ inside', () => {
    // `docs_`'s tool `x` would be mcp__docs___x: server `docs`, tool `_x`.
    for (const name of ['docs_', 'a-_', '_docs', 'a__b', '_', '__']) expect(accepted(name), name).toBe(false);
    for (const name of ['docs', 'a_b', 'a-b', 'a_-_b', 'a-', '0']) expect(accepted(name), name).toBe(true);
  });

  it('the refusal says the rule', () => {
    const [issue] = ServerNameSchema.safeParse('docs_').error!.issues;
    expect(issue!.message).toMatch(/must not start or end with "_" nor contain "__"/);
  });

  it("an accepted server's tools round-trip, whatever the tool's name (_x, a__b, __)", () => {
    for (const [server, tool] of [
      ['docs', '_x'],
      ['a-', 'read'],
      ['a_b', '__'],
      ['a-b', 'c__d'],
    ] as const) {
      expect(parseMcpToolName(mcpToolName(server, tool))).toEqual({ server, tool });
    }
  });

  it('property: every accepted server name round-trips with any non-empty tool name', () => {
    const unit = fc.constantFrom('a', 'Z', '0', '_', '-');
    fc.assert(
      fc.property(
        fc.string({ unit, minLength: 1, maxLength: 8 }).filter(accepted),
        fc.string({ unit: fc.constantFrom('_', 'x', '-', '.'), minLength: 1, maxLength: 6 }),
        (server, tool) => {
          expect(parseMcpToolName(mcpToolName(server, tool))).toEqual({ server, tool });
        },
      ),
    );
  });
});
