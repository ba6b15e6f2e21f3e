// Add a server, or edit one added here: http (URL, headers) always; stdio (command, arguments,
// environment, working directory) only when the server allows it (GATEHOUSE_MCP_UI_STDIO=1).
// Secrets show as their names with a mask and keep their stored value unless retyped. The name of
// a server being edited is fixed: its pins and rules are keyed by it. Refusals show under their field.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Card, CardHeader, Notice, RadioGroup, TextArea, TextField } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import {
  EMPTY_SERVER_FORM,
  entryFromForm,
  formFromView,
  messageFor,
  type FormFieldError,
  type ServerKind,
} from '@/lib/client/server-form';
import { usePutServer } from '@/lib/client/servers';
import type { McpServerView } from '@/lib/contract';
import { StdioFields } from './stdio-fields';

/** The fields this form shows a server's refusal under; any other refusal is a notice. */
const SHOWN = ['(name)', 'url', 'headers', 'command', 'args', 'env', 'cwd'];

export function ServerForm({
  allowStdio,
  server,
  onDone,
}: {
  allowStdio: boolean;
  /** The server to edit; without it the form adds one. */
  server?: McpServerView;
  onDone?: () => void;
}) {
  const editing = server !== undefined;
  const [form, setForm] = useState(() => (server ? formFromView(server) : EMPTY_SERVER_FORM));
  const [local, setLocal] = useState<FormFieldError[]>([]);
  const [done, setDone] = useState<string>();
  const put = usePutServer();
  const error = put.error instanceof ApiError ? put.error : undefined;
  const fields = error?.fields ?? [];
  const fieldError = (field: string) => local.find((e) => e.field === field)?.message ?? messageFor(fields, field);
  const title = editing ? `Edit ${server.name}` : 'Add a server';

  function submit(event: FormEvent) {
    event.preventDefault();
    setDone(undefined);
    const result = entryFromForm(form, server);
    setLocal(result.errors ?? []);
    if (!result.entry) return;
    const name = form.name.trim();
    put.mutate(
      { name, entry: result.entry, intent: editing ? 'edit' : 'add' },
      {
        onSuccess: () => {
          setDone(`Saved ${name}.`);
          if (editing) onDone?.();
          else setForm(EMPTY_SERVER_FORM);
        },
      },
    );
  }

  const nameError =
    messageFor(fields, '(name)') ?? (error?.code === 'conflict:mcp_server_file' ? error.message : undefined);
  const shown = fields.some((f) => SHOWN.some((k) => messageFor([f], k)));
  const idBase = editing ? `edit-server-${server.name}` : 'add-server';
  return (
    <Card aria-labelledby={`${idBase}-heading`}>
      <CardHeader id={`${idBase}-heading`} level={editing ? 3 : 2} title={title} />
      <form className="servers-form" onSubmit={submit} aria-label={title} noValidate>
        <TextField
          label="Name"
          value={form.name}
          readOnly={editing}
          hint={editing ? 'Fixed: pins and rules name the server. Remove it and add it anew to rename.' : undefined}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={nameError}
        />
        {allowStdio && (
          <RadioGroup<ServerKind>
            legend="Transport"
            value={form.type}
            onChange={(type) => setForm({ ...form, type })}
            options={[
              { value: 'http', label: 'http (Streamable HTTP)' },
              { value: 'stdio', label: 'stdio', hint: '(a command run on this host)' },
            ]}
          />
        )}
        {form.type === 'http' ? (
          <>
            <TextField
              label="URL"
              value={form.url}
              placeholder="https://example.com/mcp"
              onChange={(e) => setForm({ ...form, url: e.target.value })}
              error={fieldError('url')}
            />
            <TextArea
              label="Headers (JSON, stored encrypted)"
              value={form.headers}
              hint={editing ? 'A value left as ******** keeps the stored one.' : undefined}
              onChange={(e) => setForm({ ...form, headers: e.target.value })}
              error={fieldError('headers')}
            />
          </>
        ) : (
          <StdioFields form={form} setForm={setForm} fieldError={fieldError} editing={editing} />
        )}
        <label className="servers-check">
          <input
            type="checkbox"
            checked={form.trusted}
            onChange={(e) => setForm({ ...form, trusted: e.target.checked })}
          />{' '}
          Trusted (its annotations may lower a tool&apos;s risk)
        </label>
        <div className="servers-actions">
          <Button type="submit" variant="primary" disabled={put.isPending}>
            {editing ? `Save ${server.name}` : 'Add server'}
          </Button>
          {editing && (
            <Button type="button" onClick={onDone}>
              Cancel
            </Button>
          )}
        </div>
        {done && <Notice tone="success">{done}</Notice>}
        {put.error && !nameError && !shown && <Notice tone="danger">{put.error.message}</Notice>}
      </form>
    </Card>
  );
}
