// One of the Servers page's errors: a config-file mistake, or a stored server that could not be
// loaded (no longer valid, or a stdio server while GATEHOUSE_MCP_UI_STDIO is off), which only
// an admin can clear, by removing it.
'use client';
import { Button, Notice } from '@/components/ui';
import type { McpServersResponse } from '@/lib/contract';
import { useRemoveServer } from '@/lib/client/servers';

/** `(stored)`: the field the server gives a stored server's load failure (lib/server/mcp/catalog.ts). */
const STORED_FIELD = '(stored)';

export function ConfigError({ error }: { error: McpServersResponse['errors'][number] }) {
  const remove = useRemoveServer();
  const stored = error.field === STORED_FIELD;
  return (
    <Notice tone="danger">
      MCP server &quot;{error.server}&quot;: {stored ? 'stored in Gatehouse, ' : `${error.field}: `}
      {error.message}
      {stored && (
        <>
          {' '}
          <Button size="sm" variant="danger" onClick={() => remove.mutate(error.server)} disabled={remove.isPending}>
            Remove {error.server}
          </Button>
        </>
      )}
    </Notice>
  );
}
