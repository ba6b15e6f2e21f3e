// Output caps shared by the tools: cut text at a byte budget on a character boundary and say so
// in the text itself, so the model always knows it saw only part of the output.

/** Human size for truncation markers: `512 B`, `64.0 KiB`, `1.2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
}

export function truncationMarker(totalBytes: number | undefined): string {
  return totalBytes === undefined ? '\n[output truncated]' : `\n[output truncated: ${formatBytes(totalBytes)} total]`;
}

/**
 * Decodes at most `maxBytes` of `bytes` as UTF-8 without splitting a character: an incomplete
 * sequence at the cut is dropped rather than shown as U+FFFD.
 */
export function decodeCapped(bytes: Uint8Array, maxBytes: number): { text: string; truncated: boolean } {
  if (bytes.length <= maxBytes) return { text: new TextDecoder().decode(bytes), truncated: false };
  // `stream: true` holds back a trailing partial character instead of emitting a replacement.
  const text = new TextDecoder().decode(bytes.subarray(0, maxBytes), { stream: true });
  return { text, truncated: true };
}

/**
 * Collects a byte stream up to a cap while counting everything that arrived, so the marker can
 * say how much was dropped. Memory stays bounded by the cap whatever the producer writes.
 */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.maxBytes - this.kept;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }

  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  /** The kept text, with the truncation marker appended when something was dropped. */
  text(): string {
    // When cut, the last kept character may be incomplete: stream mode drops it.
    const text = new TextDecoder().decode(Buffer.concat(this.chunks), { stream: this.truncated });
    return this.truncated ? text + truncationMarker(this.total) : text;
  }
}
