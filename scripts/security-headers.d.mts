// Types of scripts/security-headers.mjs, for proxy.ts and its test.
import type { ServerResponse } from 'node:http';

export declare const SECURITY_HEADERS: readonly (readonly [string, string])[];
export declare function setSecurityHeaders(res: Pick<ServerResponse, 'setHeader'>): void;
export declare function contentSecurityPolicy(options: { nonce: string; dev?: boolean }): string;
