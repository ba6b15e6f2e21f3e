// Types of scripts/lingering-close.mjs, for its test.
import type { IncomingMessage, Server } from 'node:http';

export declare const LINGER_MS: number;
export declare const LINGER_MAX_BYTES: number;
export declare function installLingeringClose(
  server: Server,
  options?: { lingerMs?: number; maxBytes?: number },
): { track(req: IncomingMessage): void };
