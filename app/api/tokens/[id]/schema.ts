// Body of PATCH /api/tokens/:id: the token's settings (what an MCP client without elicitation gets on ask).
import { z } from 'zod';
import { WithoutElicitationSchema } from '@/lib/server/mcp-server/token-settings';

export const TokenSettingsSchema = z.strictObject({ mcpWithoutElicitation: WithoutElicitationSchema });
