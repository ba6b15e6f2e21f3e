// The engine's limits: how long a value it matches may be, how much work one evaluation may do,
// and how large a policy an untrusted caller may supply. Every matcher is linear in the value it
// is given; these bounds turn "linear" into a number of steps, so no policy and no input can make
// one evaluation cost more than WORK_BUDGET steps of matching.
//
// A step is roughly one character compared against one pattern element (a nanosecond or so);
// a regex costs its RE2 program size per character, the worst case of RE2's NFA.

/** A value longer than this is never matched: deny and ask rules treat it as matching, allow rules and grants as not. */
export const MAX_VALUE_LENGTH = 100_000;

/** Tool and agent names longer than this are malformed calls (denied). */
export const MAX_NAME_LENGTH = 256;

/** Matching steps one evaluation may spend; beyond, every undecided part asks (it is never allowed). */
export const WORK_BUDGET = 20_000_000;

/** Steps charged for looking at one rule for one part, before any pattern is matched. */
export const RULE_STEPS = 100;

/** Steps per character per RE2 instruction (RE2's NFA is slower per step than a plain compare). */
export const REGEX_STEPS_PER_INSTRUCTION = 16;

/** Largest RE2 program a regex condition may compile to. */
export const MAX_REGEX_PROGRAM = 2_000;

export interface DraftLimits {
  rules: number;
  /** Params plus conditions of one rule. */
  matchersPerRule: number;
  /** Characters of one pattern, condition value, tool or agent glob. */
  patternLength: number;
  /** Characters of all patterns together, a regex counting the size RE2 expands it to; bounds the cost of compiling. */
  totalPatternLength: number;
}

/** Size limits of a policy supplied by a caller who may not edit the stored policy (a run's `permissions`). */
export const DRAFT_LIMITS: Readonly<DraftLimits> = {
  rules: 100,
  matchersPerRule: 8,
  patternLength: 500,
  totalPatternLength: 5_000,
};

/**
 * Size limits of a policy's tests (PolicyTestSchema). Each test is one evaluation, itself bounded
 * by WORK_BUDGET, so these bound the work of running every test of a policy on each save.
 */
export const POLICY_TEST_LIMITS = {
  tests: 100,
  /** Characters of one test's call, as jsonSize counts them. */
  callSize: 10_000,
  /**
   * Characters of all tests' calls together. Evaluating costs up to a few microseconds per
   * character of a command (brace-heavy words), so this keeps a whole run near a tenth of a second
   * there; deeply nested substitutions cost more per character but are short (measured: 100 tests
   * of 50 nested `$(` take about 1 s).
   */
  totalCallSize: 100_000,
  nameLength: 200,
} as const;

/** Work left in one evaluation. Exhausted once a charge does not fit; it never goes below zero. */
export class WorkBudget {
  private left: number;
  exhausted = false;

  constructor(private readonly steps = WORK_BUDGET) {
    this.left = steps;
  }

  /** True if `steps` more fit (and spends them); false, and exhausted from then on, if not. */
  charge(steps: number): boolean {
    if (this.exhausted) return false;
    if (!(steps <= this.left)) {
      this.exhausted = true;
      return false;
    }
    this.left -= steps;
    return true;
  }

  get spent(): number {
    return this.steps - this.left;
  }
}
