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
  dontAsk: "Don't ask (deny what would ask)",
  bypassPermissions: 'Auto-approve',
};

/** One line each, shown where a mode is chosen: what the mode does to a call that would ask. */
export const MODE_DESCRIPTIONS: Record<Mode, string> = {
  default: 'Asks a human before anything the rules do not allow; deny rules deny.',
  acceptEdits: 'Like Safe mode, but file writes and edits inside the workspace are allowed without asking.',
  plan: 'Read-only: what only reads may run; everything else is denied.',
  dontAsk: 'Never asks: whatever would ask is denied instead.',
  bypassPermissions:
    'Dangerous: whatever would ask by default is allowed without asking. Deny and ask rules still apply.',
};

/** The mode that allows calls no human saw: confirmed before it is switched on, marked in the status bar. */
export const DANGEROUS_MODE: Mode = 'bypassPermissions';

/** A mode's label; an unknown value as it is, and no mode (a run stored without one) as the default's. */
export function modeLabel(mode: string | null | undefined): string {
  if (!mode) return MODE_LABELS.default;
  return MODE_LABELS[mode as Mode] ?? mode;
}
