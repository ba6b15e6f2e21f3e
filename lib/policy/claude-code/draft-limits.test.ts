// A run's own `permissions` may be a Claude Code settings.json too, and stays within the per-run
// limits like every other format: its entries are counted before converting, the rules they
// become after.
import { describe, expect, it } from 'vitest';
import { importDraftPolicy, PolicyValidationError } from '../index';

const limits = { rules: 4, matchersPerRule: 4, patternLength: 60, totalPatternLength: 200 };

function issuesOf(doc: unknown): string[] {
  try {
    importDraftPolicy(doc, limits);
  } catch (error) {
    if (error instanceof PolicyValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

describe('per-run limits hold for Claude Code settings', () => {
  it('too many entries are refused before converting', () => {
    const allow = Array.from({ length: 10 }, (_, i) => `Bash(echo ${i})`);
    expect(issuesOf({ permissions: { allow } })).toEqual([
      'permissions: a per-run policy may hold at most 4 rules (this one has 10)',
    ]);
  });

  it('entries that become too many rules are refused after converting', () => {
    // Two entries, but Claude Code's defaults add reads inside the project: more than 4 rules.
    expect(issuesOf({ permissions: { deny: ['Read(.env)', 'Edit(src/**)'] } })).toContainEqual(
      expect.stringMatching(/^rules: a per-run policy may hold at most 4 rules \(this one has \d+\)$/),
    );
  });

  it('a long entry is refused by the pattern length', () => {
    expect(issuesOf({ permissions: { allow: [`Bash(echo ${'a'.repeat(70)})`] } })[0]).toMatch(
      /^permissions\.allow\.0: at most 60/,
    );
  });

  it('a small one is accepted', () => {
    expect(importDraftPolicy({ permissions: { allow: ['Bash(git status)'] } }).rules[0]).toMatchObject({
      action: 'allow',
      tool: 'bash',
    });
  });
});
