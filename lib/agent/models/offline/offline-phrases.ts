// The offline model's few natural-language phrases: the user messages of the seed design's
// examples, each mapped to one fixed bash command, so those examples run offline and reach the
// gate (every one of them asks under the default policy). A line matches when it equals a phrase
// apart from case, surrounding whitespace and trailing punctuation; anything else stays prose.
// Each command is harmless in a scratch workspace.

export interface OfflinePhrase {
  phrase: string;
  command: string;
}

export const OFFLINE_PHRASES: readonly OfflinePhrase[] = [
  // Deletes only `*.log` files older than a week, printing each one it deletes.
  { phrase: 'clean up old log files', command: "find . -name '*.log' -mtime +7 -print -delete" },
  // A stand-in deployment: appends a line to deployments.txt in the workspace and says so.
  { phrase: 'deploy to staging', command: "echo staging >> deployments.txt && echo 'deployed to staging'" },
  { phrase: 'run the test suite', command: 'npm test' },
];

const BY_PHRASE = new Map(OFFLINE_PHRASES.map((entry) => [entry.phrase, entry.command]));

/** The command a line stands for, or undefined when it is not one of the phrases. */
export function phraseCommand(line: string): string | undefined {
  const key = line
    .trim()
    .replace(/[.!?]+$/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
  return BY_PHRASE.get(key);
}
