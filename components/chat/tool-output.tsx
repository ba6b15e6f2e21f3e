// A tool's output: short output in full, long output as its first lines with the rest behind
// a "Show full output" disclosure, so a 64 KiB listing does not bury the conversation. Control
// characters in it (escape sequences, carriage returns, bidi overrides) are shown as tokens.
import { Revealed } from '@/components/ui';
import { clipText } from '@/lib/client/reveal';

const MAX_LINES = 12;
const MAX_CHARS = 1_200;

export function ToolOutput({ output, label = 'Output' }: { output: string; label?: string }) {
  const lines = output.split('\n');
  const long = lines.length > MAX_LINES || output.length > MAX_CHARS;
  const head = long ? clipText(lines.slice(0, MAX_LINES).join('\n'), MAX_CHARS) : output;
  return (
    <div>
      <p className="tool-card__label">{label}</p>
      <pre className="ui-code" tabIndex={0} aria-label={label} dir="ltr">
        {head ? <Revealed text={head} /> : '(no output)'}
        {long && '…'}
      </pre>
      {long && (
        <details>
          <summary>Show full output</summary>
          <pre className="ui-code" tabIndex={0} aria-label={`Full ${label.toLowerCase()}`} dir="ltr">
            <Revealed text={output} />
          </pre>
        </details>
      )}
    </div>
  );
}
