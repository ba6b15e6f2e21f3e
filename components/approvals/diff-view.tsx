// A unified diff (the relay's `preview` for file writes and edits): added and removed lines are
// coloured and keep their +/- signs, so the change is readable without colour. What each line is
// comes from lib/client/diff-lines.ts (a written line that looks like a header is still content).
import { Revealed } from '@/components/ui';
import { diffLines } from '@/lib/client/diff-lines';
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

export function DiffView({ preview }: { preview: DiffPreview }) {
  const { lines, added, removed } = diffLines(preview.diff);
  const caption = `${preview.created ? 'New file' : 'Changes to'} ${preview.path}: ${added} line${added === 1 ? '' : 's'} added, ${removed} removed`;
  return (
    <figure className="diff-view">
      <figcaption>
        <Revealed text={caption} />
      </figcaption>
      <pre tabIndex={0} aria-label={`Diff of ${revealText(preview.path)}`} dir="ltr">
        {lines.map((line, i) => (
          <span key={i} className={line.kind === 'context' ? 'diff-line' : `diff-line diff-line--${line.kind}`}>
            {line.text ? <Revealed text={line.text} /> : ' '}
          </span>
        ))}
      </pre>
    </figure>
  );
}
