// Request schema of POST /api/policy/tests: a policy (any importable format) whose tests to run.
import { z } from 'zod';

export const RunTestsRequestSchema = z.object({
  /** Validated fully by the engine (importPolicy), which names the offending field. */
  policy: z.unknown().refine((v) => v !== undefined, 'send the policy whose tests to run'),
});
