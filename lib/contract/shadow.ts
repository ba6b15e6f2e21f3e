// The shadow policy as the browser reads it (GET /api/policy/shadow and .../diffs). Times are ISO
// strings (JSON); the server's rows hold Dates.
import { z } from 'zod';
import { ActionSchema, PolicySchema } from '../policy/types';

export const ShadowSchema = z.object({
  id: z.string(),
  policy: PolicySchema,
  /** The live policy version it was set against. */
  baseVersion: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
  note: z.string().nullable(),
});
export type Shadow = z.infer<typeof ShadowSchema>;

const DecisionSummarySchema = z
  .object({ action: ActionSchema, reason: z.string(), explanation: z.string() })
  .passthrough();

/** One real decision the shadow would have made differently. */
export const ShadowDiffSchema = z.object({
  id: z.string(),
  at: z.string(),
  runId: z.string().nullable(),
  agentId: z.string(),
  tool: z.string(),
  params: z.record(z.string(), z.unknown()),
  liveAction: ActionSchema,
  shadowAction: ActionSchema,
  live: DecisionSummarySchema,
  shadow: DecisionSummarySchema,
});
export type ShadowDiff = z.infer<typeof ShadowDiffSchema>;

export const ShadowDiffsSchema = z.object({
  shadow: ShadowSchema,
  /** Decisions compared, those the shadow agreed with, those that differ, and those not compared (queue full, a write failed). */
  counts: z.object({ compared: z.number(), same: z.number(), differ: z.number(), dropped: z.number() }),
  /** By (live -> shadow, tool), largest first, each with its newest examples. */
  groups: z.array(
    z.object({
      liveAction: ActionSchema,
      shadowAction: ActionSchema,
      tool: z.string(),
      count: z.number(),
      examples: z.array(ShadowDiffSchema),
    }),
  ),
  recent: z.object({ items: z.array(ShadowDiffSchema), nextCursor: z.string().optional() }),
});
export type ShadowDiffs = z.infer<typeof ShadowDiffsSchema>;
