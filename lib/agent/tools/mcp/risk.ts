// A tool's risk from its MCP annotations. Annotations are the server's own word, so only a server
// the administrator marked trusted may lower the risk: for any other, they may raise it but never
// below `write`.
import type { Risk } from '../../../policy';

export interface ToolAnnotationHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

export function riskFromAnnotations(annotations: ToolAnnotationHints | undefined, trusted: boolean): Risk {
  // The spec's defaults: not read-only, and destructive unless said otherwise.
  const readOnly = annotations?.readOnlyHint === true;
  const destructive = annotations?.destructiveHint !== false;
  const claimed: Risk = readOnly ? 'read_only' : destructive ? 'destructive' : 'write';
  if (trusted) return claimed;
  return claimed === 'read_only' ? 'write' : claimed;
}
