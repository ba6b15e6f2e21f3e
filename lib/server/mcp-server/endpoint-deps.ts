// What /api/mcp needs from the server (runtime-deps.ts builds it from the runtime; tests fake it).
import type { AuthUser } from '../../auth';
import type { GatedCallDeps } from './gated-call';
import type { McpExposedTool } from './tools';

export interface McpEndpointDeps extends GatedCallDeps {
  tools(): Promise<McpExposedTool[]>;
  /** The express lane's lookup: the tool `tools()` would find by this name, when known without waiting; else undefined. */
  toolNow?(name: string): McpExposedTool | undefined;
  /** The express lane's view of `exposedTools`: the token's choice when held in memory; else undefined. */
  exposedNow?(tokenId: string): { patterns: readonly string[] | undefined } | undefined;
  /** The token's choice of tools for its MCP clients (globs); undefined: every tool. */
  exposedTools(tokenId: string): Promise<readonly string[] | undefined>;
  /** The token's choice for a client without elicitation: decline an ask at once (else wait). */
  declineWithoutElicitation(tokenId: string): Promise<boolean>;
  /** Decides a relay as the user who answered the confirmation (409s, a relay decided already, are swallowed). */
  answerRelay(user: AuthUser, relayId: string, answer: { approved: boolean; reason?: string }): Promise<void>;
  version: string;
}
