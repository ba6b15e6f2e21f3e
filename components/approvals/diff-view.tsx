// A unified diff (the relay's `preview` for file writes and edits): added and removed lines are
// coloured and keep their +/- signs, so the change is readable without colour.
import { Revealed } from '@/components/ui';
import { revealText } from '@/lib/client/reveal';

export interface DiffPreview {
  kind: 'diff';
  path: string;
  diff: string;
  created: boolean;
}

export function isDiffPreview(value: unknown): value is DiffPreview {
  const v = value as Partial<DiffPreview> | null;
  return !!v && v.kind === 'diff' && typeof v.diff === 'string' && typeof v.path === 'string';
}

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-line diff-line--meta';
  if (line.startsWith('@@')) return 'diff-line diff-line--hunk';
  if (line.startsWith('+')) return 'diff-line diff-line--add';
  if (line.startsWith('-')) return 'diff-line diff-line--del';
  if (line.startsWith('\\')) return 'diff-line diff-line--meta';
  return 'diff-line';
}

export function DiffView({ preview }: { preview: DiffPreview }) {
  const lines = preview.diff.replace(/\n$/, '').split('\n');
  const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
  const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
  const caption = `${preview.created ? 'New file' : 'Changes to'} ${preview.path}: ${added} line${added === 1 ? '' : 's'} added, ${removed} removed`;
  return (
    <figure className="diff-view">
      <figcaption>
        <Revealed text={caption} />
      </figcaption>
      <pre tabIndex={0} aria-label={`Diff of ${revealText(preview.path)}`} dir="ltr">
        {lines.map((line, i) => (
          <span key={i} className={lineClass(line)}>
            {line ? <Revealed text={line} /> : ' '}
          </span>
        ))}
      </pre>
    </figure>
  );
}
