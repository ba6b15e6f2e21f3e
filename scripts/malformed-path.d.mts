// Types of scripts/malformed-path.mjs, for its test.
import type { ServerResponse } from 'node:http';

export declare function malformedPath(url: string | undefined): boolean;
export declare function refuseMalformedPath(res: ServerResponse): void;
