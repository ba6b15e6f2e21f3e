// The server-sent events wire format: writing one event (the server's streams) and parsing one block
// (the text between blank lines: the browser's stream reader, the API specs, the gate benchmark),
// so every side writes and reads the stream the same way.

/** One event as the server writes it: its sequence number as the SSE id, its type as the SSE event. */
export interface SseMessage {
  id?: number;
  event: string;
  data: unknown;
}

export function formatSse(message: SseMessage): string {
  const lines = [`event: ${message.event}`];
  if (message.id !== undefined) lines.unshift(`id: ${message.id}`);
  for (const line of JSON.stringify(message.data).split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}

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
