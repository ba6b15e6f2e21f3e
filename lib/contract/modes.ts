// The permission modes a run can be in, and the words the UI shows for each: one table, read by
// the API (GET /api/agents), the chat's mode picker and the runs list.
import { ModeSchema, type Mode } from '../policy/types';

export { ModeSchema, type Mode };

/** In the order the picker offers them. */
export const MODES: readonly Mode[] = ModeSchema.options;

export const MODE_LABELS: Record<Mode, string> = {
  default: 'Safe mode',
  acceptEdits: 'Accept edits',
  plan: 'Plan',
  dontAsk: "Don't ask",
  bypassPermissions: 'Auto-approve',
};

/** A mode's label; an unknown value as it is, and no mode (a run stored without one) as the default's. */
export function modeLabel(mode: string | null | undefined): string {
  if (!mode) return MODE_LABELS.default;
  return MODE_LABELS[mode as Mode] ?? mode;
}
