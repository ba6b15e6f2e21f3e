// What /api/mcp needs from the server (runtime-deps.ts builds it from the runtime; tests fake it).
import type { AuthUser } from '../../auth';
import type { GatedCallDeps } from './gated-call';
import type { McpExposedTool } from './tools';

export interface McpEndpointDeps extends GatedCallDeps {
  tools(): Promise<McpExposedTool[]>;
  /** The token's choice of tools for its MCP clients (globs); undefined: every tool. */
  exposedTools(tokenId: string): Promise<string[] | undefined>;
  /** The token's choice for a client without elicitation: decline an ask at once (else wait). */
  declineWithoutElicitation(tokenId: string): Promise<boolean>;
  /** Decides a relay as the user who answered the confirmation (409s, a relay decided already, are swallowed). */
  answerRelay(user: AuthUser, relayId: string, answer: { approved: boolean; reason?: string }): Promise<void>;
  version: string;
}
