// Displayed text that a human judges (a command, parameters, a pattern): every invisible,
// reordering or blank-looking character (U+202E, a zero-width space, a NO-BREAK SPACE, which a shell
// does not split words at) is shown as a marked token such as ⟨U+202E⟩, and a Cyrillic or Greek
// letter inside a Latin word is shown with its code point beside it (а⟨U+0430⟩), so `/etc/passwd`
// spelt with a Cyrillic а cannot pass for the real one. Each mark is named for assistive technology
// and on hover, and the whole text is isolated left-to-right (<bdi dir="ltr">) so that nothing in it
// can reorder the page around it. No hooks: usable from server components too.
import { invisibleToken, revealPieces } from '@/lib/client/reveal';

export function Revealed({ text }: { text: string }) {
  return (
    <bdi dir="ltr" className="ui-revealed">
      {revealPieces(text).map((piece, i) => {
        if (piece.kind === 'text') return piece.text;
        const what = piece.kind === 'mark' ? 'invisible character' : 'look-alike letter';
        const label = `${what} ${invisibleToken(piece.code).slice(1, -1)} ${piece.name}`;
        return (
          <span key={i} className="ui-invisible" role="img" aria-label={label} title={label}>
            {piece.token}
          </span>
        );
      })}
    </bdi>
  );
}
