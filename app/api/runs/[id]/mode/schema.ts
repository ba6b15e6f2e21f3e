// Request schema of POST /api/runs/:id/mode.
import { z } from 'zod';
import { ModeSchema } from '@/lib/policy';

export const SetModeSchema = z
  .object({
    mode: ModeSchema,
    /** Also approve the run's pending calls that Auto-approve allows (only with bypassPermissions). */
    approvePending: z.boolean().optional(),
  })
  .refine((body) => !body.approvePending || body.mode === 'bypassPermissions', {
    path: ['approvePending'],
    message: 'approvePending needs mode "bypassPermissions" (Auto-approve)',
  });
