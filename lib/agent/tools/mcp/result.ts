// An MCP tool result as Gatehouse keeps it: the text the model reads, and every content block
// (text, images, resources) plus `structuredContent` for the chat. Large binary data is capped so
// one image cannot swell the event log.
import type { ToolResult } from '../types';

/** The MCP result of `tools/call`: what the catalog hands back and the chat shows. */
export interface McpCallResult {
  content: McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string; description?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: string; [key: string]: unknown };

/** Base64 characters kept per binary block in the log (~750 KB of data). */
export const MAX_INLINE_DATA = 1_000_000;

function describe(block: McpContentBlock): string {
  const b = block as Record<string, unknown>;
  switch (block.type) {
    case 'text':
      return String(b.text ?? '');
    case 'image':
    case 'audio':
      return `[${block.type} ${String(b.mimeType ?? '')}, ${Math.floor((String(b.data ?? '').length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource link ${String(b.uri ?? '')}]`;
    case 'resource': {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      return typeof r.text === 'string'
        ? `[resource ${String(r.uri ?? '')}]\n${r.text}`
        : `[resource ${String(r.uri ?? '')}]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

/** Binary data beyond the cap is dropped (the block says so), never half-kept. */
function capped(block: McpContentBlock): McpContentBlock {
  const b = block as Record<string, unknown>;
  if ((block.type === 'image' || block.type === 'audio') && String(b.data ?? '').length > MAX_INLINE_DATA)
    return { ...block, data: '', omitted: true } as McpContentBlock;
  if (block.type === 'resource') {
    const r = (b.resource ?? {}) as Record<string, unknown>;
    if (typeof r.blob === 'string' && r.blob.length > MAX_INLINE_DATA)
      return { ...block, resource: { ...r, blob: '' }, omitted: true } as McpContentBlock;
  }
  return block;
}

export function toToolResult(result: McpCallResult): ToolResult {
  const lines = result.content.map(describe);
  if (result.structuredContent !== undefined && !result.content.some((c) => c.type === 'text'))
    lines.push(JSON.stringify(result.structuredContent));
  return {
    output: lines.join('\n'),
    ...(result.isError ? { isError: true } : {}),
    metadata: {
      mcp: {
        content: result.content.map(capped),
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      },
    },
  };
}
