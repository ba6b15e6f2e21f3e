// What an MCP tool returned besides its text: images (and audio) inline, resources and links by
// URI, and structuredContent as JSON. Text blocks are already in the output above.
import { JsonView, Revealed } from '@/components/ui';
import type { McpResultView } from '@/lib/client/chat/transcript';

const SAFE_MEDIA = /^(image\/(png|jpeg|gif|webp)|audio\/(wav|mpeg|ogg|webm))$/;

export function McpContent({ result, tool }: { result: McpResultView; tool: string }) {
  const blocks = result.content.filter((b) => b.type !== 'text');
  if (blocks.length === 0 && result.structuredContent === undefined) return null;
  return (
    <div className="tool-card__mcp">
      {blocks.map((block, index) => {
        const mime = String(block.mimeType ?? '');
        const data = typeof block.data === 'string' ? block.data : '';
        if (block.type === 'image' && data && SAFE_MEDIA.test(mime))
          return (
            // eslint-disable-next-line @next/next/no-img-element -- a data: URL from the tool result, not an asset
            <img
              key={index}
              src={`data:${mime};base64,${data}`}
              alt={`Image returned by ${tool}`}
              className="tool-card__image"
            />
          );
        if (block.type === 'audio' && data && SAFE_MEDIA.test(mime))
          return (
            <audio key={index} controls src={`data:${mime};base64,${data}`} aria-label={`Audio returned by ${tool}`} />
          );
        const resource = (block.resource ?? {}) as { uri?: unknown };
        const uri = String(block.uri ?? resource.uri ?? '');
        return (
          <p key={index} className="tool-card__label">
            {block.type === 'resource_link' ? (
              'Resource link'
            ) : block.type === 'resource' ? (
              'Resource'
            ) : (
              <Revealed text={String(block.type)} />
            )}
            {uri && (
              <>
                :{' '}
                <code>
                  <Revealed text={uri} />
                </code>
              </>
            )}
            {block.omitted === true && ' (too large to keep)'}
          </p>
        );
      })}
      {result.structuredContent !== undefined && (
        <JsonView value={result.structuredContent} label={`${tool} structured content`} />
      )}
    </div>
  );
}
