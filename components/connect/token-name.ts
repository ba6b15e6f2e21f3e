// Tokens made on the Connect page are named with this prefix, so the page can list them again.
export const CLAUDE_CODE_TOKEN_PREFIX = 'Claude Code';

export function claudeCodeTokenName(now: Date = new Date()): string {
  return `${CLAUDE_CODE_TOKEN_PREFIX} ${now.toISOString().slice(0, 16).replace('T', ' ')}`;
}
