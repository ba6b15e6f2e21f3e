// Typed errors of the permission engine. Evaluating a call never throws; compiling or importing
// a policy throws PolicyValidationError, naming every offending field by its path.
import type { z } from 'zod';

export interface PolicyIssue {
  /** Dotted path of the offending field, e.g. `rules.3.params.command`. */
  path: string;
  message: string;
}

export class PolicyValidationError extends Error {
  readonly code = 'invalid_policy';
  readonly issues: PolicyIssue[];

  constructor(issues: PolicyIssue[], what = 'policy') {
    const first = issues[0];
    const head = first ? `${first.path || '(root)'}: ${first.message}` : 'invalid';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`Invalid ${what}: ${head}${more}`);
    this.name = 'PolicyValidationError';
    this.issues = issues;
  }

  static fromZod(error: z.ZodError, prefix: (string | number)[] = [], what?: string): PolicyValidationError {
    return new PolicyValidationError(
      error.issues.map((issue) => ({
        path: [...prefix, ...issue.path].map(String).join('.'),
        message: issue.message,
      })),
      what,
    );
  }
}

export function isPolicyValidationError(error: unknown): error is PolicyValidationError {
  return error instanceof PolicyValidationError;
}
