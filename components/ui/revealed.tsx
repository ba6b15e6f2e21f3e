// Displayed text that a human judges (a command, parameters, a pattern): every invisible or
// reordering character is shown as a marked token such as ⟨U+202E⟩, named for assistive
// technology and on hover, and the whole text is isolated left-to-right (<bdi dir="ltr">) so that
// nothing in it can reorder the page around it. No hooks: usable from server components too.
import { revealPieces } from '@/lib/client/reveal';

export function Revealed({ text }: { text: string }) {
  return (
    <bdi dir="ltr" className="ui-revealed">
      {revealPieces(text).map((piece, i) => {
        if (piece.kind === 'text') return piece.text;
        const label = `invisible character ${piece.token.slice(1, -1)} ${piece.name}`;
        return (
          <span key={i} className="ui-invisible" role="img" aria-label={label} title={label}>
            {piece.token}
          </span>
        );
      })}
    </bdi>
  );
}
