// Per API token: what an ask does for an MCP client that cannot answer elicitation. `wait` (the
// default) holds the call until it is decided in Gatehouse; `decline` denies it at once.
import { z } from 'zod';

export const WithoutElicitationSchema = z.enum(['wait', 'decline']);

export const withoutElicitationKey = (tokenId: string) => `mcp.without-elicitation:${tokenId}`;
