// The agent profiles a chat can pick (POST /api/chat `agent`, GET /api/agents): which built-in
// tools the main agent gets and which subagents its `task` tool may run. Unknown names are a 400
// naming the field, never a silent fallback to more tools.
import picomatch from 'picomatch';
import { builtinTools, type AgentProfile, type AgentTool } from '../../agent';
import { AppError } from '../http/errors';

/** The upstream MCP tools on offer now (the catalog), and a version that changes with them. */
export interface McpToolSource {
  version: number;
  /** The agent tools for these names; names of a configured server it cannot list now get a stand-in that fails as unavailable. */
  agentTools(names?: readonly string[]): AgentTool[];
}

export interface ChatProfile {
  name: string;
  description: string;
  /** Tool names or globs (`mcp__*`, `mcp__github__*`), plus `task` when it may hand work to subagents. */
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
    description: 'Every built-in tool, every configured MCP tool, and the reviewer and researcher subagents',
    tools: [...builtinTools.map((t) => t.name), 'task', 'mcp__*'],
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
  /** The MCP catalog's version the tools were taken from (agents are cached per version). */
  mcpVersion: number;
}

/** The profile's tools as names: its patterns matched against what is on offer now. */
function profileToolNames(profile: ChatProfile, available: readonly string[]): string[] {
  const isMatch = picomatch(profile.tools);
  return available.filter((name) => isMatch(name));
}

/** The tools for a profile, narrowed to `tools` when given (each must belong to the profile). */
export function selectTools(
  agent: string | undefined,
  tools: string[] | undefined,
  mcp?: McpToolSource,
): ToolSelection {
  const name = agent ?? DEFAULT_PROFILE;
  const profile = CHAT_PROFILES.find((p) => p.name === name);
  if (!profile) {
    throw AppError.badRequest(`Unknown agent "${name}"`, [
      { path: 'agent', message: `expected one of: ${CHAT_PROFILES.map((p) => p.name).join(', ')}` },
    ]);
  }
  const mcpTools = mcp?.agentTools() ?? [];
  const available = [...builtinTools.map((t) => t.name), 'task', ...mcpTools.map((t) => t.name)];
  const offered = profileToolNames(profile, available);
  // A stored run may name an MCP tool its server cannot list now: it gets a stand-in that fails as unavailable.
  const isMcpPattern = picomatch(profile.tools.filter((t) => t.startsWith('mcp__')));
  const accepts = (tool: string) => offered.includes(tool) || (tool.startsWith('mcp__') && isMcpPattern(tool));
  const fields = (tools ?? []).flatMap((tool, index) =>
    accepts(tool)
      ? []
      : [
          {
            path: `tools.${index}`,
            message: `"${tool}" is not a tool of agent "${profile.name}" (${offered.join(', ')})`,
          },
        ],
  );
  if (fields.length > 0) throw AppError.badRequest(`Invalid request: ${fields[0]!.path} ${fields[0]!.message}`, fields);
  const toolNames = tools
    ? [...offered.filter((t) => tools.includes(t)), ...tools.filter((t) => !offered.includes(t))]
    : offered;
  const mcpNames = toolNames.filter((t) => t.startsWith('mcp__'));
  return {
    profile,
    tools: [
      ...(builtinTools.filter((t) => toolNames.includes(t.name)) as AgentTool[]),
      ...(mcpNames.length > 0 && mcp ? mcp.agentTools(mcpNames) : []),
    ],
    agents: toolNames.includes('task') ? SUBAGENTS : [],
    toolNames,
    mcpVersion: mcp?.version ?? 0,
  };
}
