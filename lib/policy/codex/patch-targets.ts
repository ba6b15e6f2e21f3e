// The files a Codex `apply_patch` envelope touches, read from its headers (`*** Add File:`,
// `*** Update File:`, `*** Move to:`, `*** Delete File:`). Over-inclusive by design: any line that
// reads as a header once trimmed counts, so a file Codex would touch is never missed (an extra
// target only adds a check), and a header this parser does not know refuses the patch.

export type PatchTarget =
  { op: 'add'; path: string; content: string } | { op: 'update' | 'move_to' | 'delete'; path: string };

/** A patch this parser will not vouch for; the message names what is wrong. */
export class PatchShapeError extends Error {}

const HEADERS: [string, 'add' | 'update' | 'move_to' | 'delete'][] = [
  ['*** Add File:', 'add'],
  ['*** Update File:', 'update'],
  ['*** Move to:', 'move_to'],
  ['*** Delete File:', 'delete'],
];
const MARKERS = new Set(['*** Begin Patch', '*** End Patch', '*** End of File']);

/** The patch's targets in order; throws PatchShapeError for an envelope it cannot read. */
export function patchTargets(patch: string): PatchTarget[] {
  const lines = patch.split(/\r?\n/);
  const trimmed = lines.map((line) => line.trim());
  const first = trimmed.findIndex((line) => line !== '');
  if (first === -1 || trimmed[first] !== '*** Begin Patch')
    throw new PatchShapeError('the patch must start with "*** Begin Patch"');
  if (!trimmed.includes('*** End Patch')) throw new PatchShapeError('the patch must end with "*** End Patch"');
  const targets: PatchTarget[] = [];
  let adding: { path: string; lines: string[] } | undefined;
  const endAdd = () => {
    if (adding) targets.push({ op: 'add', path: adding.path, content: adding.lines.join('\n') });
    adding = undefined;
  };
  for (let i = first + 1; i < lines.length; i++) {
    const line = trimmed[i]!;
    if (line.startsWith('***')) {
      endAdd();
      if (MARKERS.has(line)) continue;
      const header = HEADERS.find(([prefix]) => line.startsWith(prefix));
      if (!header)
        throw new PatchShapeError(`line ${i + 1} is a header this gate does not know: "${line.slice(0, 80)}"`);
      const file = line.slice(header[0].length).trim();
      if (file === '') throw new PatchShapeError(`line ${i + 1} names no file`);
      if (header[1] === 'move_to' && targets.at(-1)?.op !== 'update') {
        throw new PatchShapeError(`line ${i + 1}: "*** Move to:" must follow "*** Update File:"`);
      }
      if (header[1] === 'add') adding = { path: file, lines: [] };
      else targets.push({ op: header[1], path: file });
      continue;
    }
    if (adding && lines[i]!.startsWith('+')) adding.lines.push(lines[i]!.slice(1));
  }
  endAdd();
  if (targets.length === 0) throw new PatchShapeError('the patch names no file');
  return targets;
}
