// Body of PATCH /api/tokens/:id: the token's settings for its MCP clients: what one without
// elicitation gets on ask, and which tools they see (`null`: every tool again). At least one.
import { z } from 'zod';
import { ExposedToolsSchema, WithoutElicitationSchema } from '@/lib/server/mcp-server/token-settings';

export const TokenSettingsSchema = z
  .strictObject({
    mcpWithoutElicitation: WithoutElicitationSchema.optional(),
    mcpTools: ExposedToolsSchema.nullable().optional(),
  })
  .refine((body) => body.mcpWithoutElicitation !== undefined || body.mcpTools !== undefined, {
    message: 'send mcpWithoutElicitation, mcpTools, or both',
  });
