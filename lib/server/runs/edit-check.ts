// The live check of the approval dialog's Edit: would this edited call be accepted (the very check
// a decision meets: the tool's schema, then the deny rules), and what would it change (the tool's
// own preview, e.g. a file write's diff, for the edited call)? Nothing is decided or run.
import { realpath } from 'node:fs/promises';
import { builtinTools } from '../../agent';
import type { Queries } from '../../db';
import type { Decision } from '../../policy';
import { AppError, toAppError, type FieldError } from '../http/errors';
import { outsidePreview } from '../external/outside-preview';
import { loadPolicy } from '../stores/policy-store';
import { checkedEdit } from './decision-checks';

export type EditCheckResult =
  | { ok: true; params: Record<string, unknown>; preview?: unknown }
  | { ok: false; fields?: FieldError[]; decision?: Decision; message: string };

export async function checkEditedCall(
  q: Queries,
  relayId: string,
  params: Record<string, unknown>,
  workspace: string,
): Promise<EditCheckResult> {
  const row = await q.relays.getRelay({ id: relayId });
  if (!row) throw new AppError('not_found:relay', 404, 'No such relay');
  if (row.status !== 'pending') throw new AppError('conflict:relay_decided', 409, `The relay is ${row.status}`);
  const root = await realpath(workspace).catch(() => workspace);
  let checked: Record<string, unknown>;
  try {
    checked = checkedEdit({ approved: true, params }, row.request, (await loadPolicy(q)).policy, root).params!;
  } catch (error) {
    const refused = toAppError(error);
    if (refused.status !== 400 && refused.status !== 409) throw error;
    const details = refused.details as { fields?: FieldError[]; decision?: Decision } | undefined;
    return { ok: false, message: refused.message, fields: details?.fields, decision: details?.decision };
  }
  const tool = builtinTools.find((t) => t.name === row.tool);
  // An outside agent's call (it has a place): from the edited call alone, never the server's files.
  const preview = row.request.place
    ? outsidePreview(row.tool, checked)
    : tool?.preview
      ? await tool.preview(checked as never, { workspace: root }).catch(() => undefined)
      : undefined;
  return { ok: true, params: checked, ...(preview ? { preview } : {}) };
}
