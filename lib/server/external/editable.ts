// Which edit of an outside call its CLI can run. A hook hands the CLI back only one field of an
// approver's edit (a command, a file's content, a URL) and the CLI runs the rest as its model sent
// it, so an edit that changed anything else would run a call nobody approved. The same check
// refuses such an edit before it is stored (decision-checks.ts) and picks what the hook hands back.
import { canonicalJson } from '../../agent/tools/mcp/pin';
import type { RelayPlace } from '../../contract';

/** The one field a CLI takes back from an edit, which must keep starting with `prefix`; null: none (RelayPlace.editable). */
export type EditableField = Exclude<RelayPlace['editable'], undefined>;

/**
 * The new value of the editable field, when the edit changed that field alone, to text that keeps
 * its prefix; else undefined (an edit the CLI cannot run).
 */
export function runnableEdit(
  editable: EditableField,
  mapped: Record<string, unknown>,
  edited: Record<string, unknown>,
): string | undefined {
  if (!editable) return undefined;
  const rest = (params: Record<string, unknown>) => canonicalJson({ ...params, [editable.field]: undefined });
  const value = edited[editable.field];
  if (rest(mapped) !== rest(edited) || typeof value !== 'string') return undefined;
  return value.startsWith(editable.prefix ?? '') ? value : undefined;
}
