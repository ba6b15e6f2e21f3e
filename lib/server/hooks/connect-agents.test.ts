// The Connect page names each agent by its runs' `runs.agent`, as the agent's hook route records it
// (lib/contract may not import the routes, so the two are pinned together here).
import { expect, it } from 'vitest';
import { CONNECT_AGENTS } from '@/lib/contract';
import { CLAUDE_CODE_AGENT } from './claude-code';
import { CODEX_AGENT } from './codex';
import { GEMINI_CLI_AGENT } from './gemini-cli';

it('every agent the Connect page offers is named as its hook route names its runs', () => {
  expect(CONNECT_AGENTS).toEqual([CLAUDE_CODE_AGENT, GEMINI_CLI_AGENT, CODEX_AGENT]);
});
