// Parsing one server-sent event block (the text between blank lines). Shared by the browser's
// stream reader, the API specs and the gate benchmark, so they all read the stream the same way.
export interface ParsedSseEvent {
  id?: number;
  event: string;
  data: Record<string, unknown>;
}

/** The event in a block, or undefined for a comment-only block (a heartbeat). */
export function parseSseBlock(block: string): ParsedSseEvent | undefined {
  let id: number | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    if (line.startsWith('id: ')) id = Number(line.slice(4));
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return undefined;
  return { ...(id === undefined ? {} : { id }), event, data: JSON.parse(data.join('\n')) as Record<string, unknown> };
}
