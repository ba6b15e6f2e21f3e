// The agent profiles a chat can pick (POST /api/chat `agent`, GET /api/agents): which built-in
// tools the main agent gets and which subagents its `task` tool may run. Unknown names are a 400
// naming the field, never a silent fallback to more tools.
import { builtinTools, type AgentProfile, type AgentTool } from '../../agent';
import { AppError } from '../http/errors';

export interface ChatProfile {
  name: string;
  description: string;
  /** Built-in tool names, plus `task` when it may hand work to subagents. */
  tools: string[];
  system?: string;
}

export const SUBAGENTS: AgentProfile[] = [
  {
    name: 'reviewer',
    description: 'reads and lists files in the workspace and reports back',
    tools: ['read_file', 'list_files'],
  },
  {
    name: 'researcher',
    description: 'fetches web pages and reads files',
    tools: ['fetch_url', 'read_file', 'list_files'],
  },
];

export const CHAT_PROFILES: ChatProfile[] = [
  {
    name: 'general',
    description: 'Every built-in tool, and the reviewer and researcher subagents',
    tools: [...builtinTools.map((t) => t.name), 'task'],
  },
  { name: 'shell', description: 'Runs shell commands and reads files', tools: ['bash', 'read_file', 'list_files'] },
  { name: 'reader', description: 'Only reads and lists files', tools: ['read_file', 'list_files'] },
];

export const DEFAULT_PROFILE = 'general';

export interface ToolSelection {
  profile: ChatProfile;
  /** The built-in tools the main agent gets. */
  tools: AgentTool[];
  /** Subagents, when the selection includes `task`. */
  agents: AgentProfile[];
  /** The names actually selected, stored with the run so a resume gets the same tools. */
  toolNames: string[];
}

/** The tools for a profile, narrowed to `tools` when given (each must belong to the profile). */
export function selectTools(agent: string | undefined, tools: string[] | undefined): ToolSelection {
  const name = agent ?? DEFAULT_PROFILE;
  const profile = CHAT_PROFILES.find((p) => p.name === name);
  if (!profile) {
    throw AppError.badRequest(`Unknown agent "${name}"`, [
      { path: 'agent', message: `expected one of: ${CHAT_PROFILES.map((p) => p.name).join(', ')}` },
    ]);
  }
  const fields = (tools ?? []).flatMap((tool, index) =>
    profile.tools.includes(tool)
      ? []
      : [
          {
            path: `tools.${index}`,
            message: `"${tool}" is not a tool of agent "${profile.name}" (${profile.tools.join(', ')})`,
          },
        ],
  );
  if (fields.length > 0) throw AppError.badRequest(`Invalid request: ${fields[0]!.path} ${fields[0]!.message}`, fields);
  const toolNames = tools ? profile.tools.filter((t) => tools.includes(t)) : profile.tools;
  return {
    profile,
    tools: builtinTools.filter((t) => toolNames.includes(t.name)) as AgentTool[],
    agents: toolNames.includes('task') ? SUBAGENTS : [],
    toolNames,
  };
}
