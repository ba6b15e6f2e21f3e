// Types of scripts/forwarded-for.mjs, for its test.
import type { IncomingMessage } from 'node:http';

export declare function appendForwardedFor(req: IncomingMessage): void;
