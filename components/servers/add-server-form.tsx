// Add (or replace) an http MCP server: name, URL, optional headers as JSON, trusted. stdio servers
// only when the server allows them (GATEHOUSE_MCP_UI_STDIO=1). Refusals show under their field.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Card, CardHeader, Notice, TextArea, TextField } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { usePutServer } from '@/lib/client/servers';

const EMPTY = { name: '', url: '', headers: '', trusted: false };

export function AddServerForm() {
  const [form, setForm] = useState(EMPTY);
  const [headersError, setHeadersError] = useState<string>();
  const [done, setDone] = useState<string>();
  const put = usePutServer();
  const error = put.error instanceof ApiError ? put.error : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    setDone(undefined);
    let headers: unknown;
    try {
      headers = form.headers.trim() ? JSON.parse(form.headers) : undefined;
      setHeadersError(undefined);
    } catch {
      setHeadersError('must be a JSON object, e.g. {"Authorization": "Bearer ..."}');
      return;
    }
    const entry = {
      type: 'http',
      url: form.url.trim(),
      ...(headers ? { headers } : {}),
      ...(form.trusted ? { trusted: true } : {}),
    };
    put.mutate(
      { name: form.name.trim(), entry },
      {
        onSuccess: () => {
          setDone(`Saved ${form.name.trim()}.`);
          setForm(EMPTY);
        },
      },
    );
  }

  const nameError =
    error?.fieldMessage('(name)') ?? (error?.code === 'conflict:mcp_server_file' ? error.message : undefined);
  return (
    <Card aria-labelledby="add-server-heading">
      <CardHeader id="add-server-heading" title="Add a server" />
      <form className="servers-form" onSubmit={submit} aria-label="Add a server" noValidate>
        <TextField
          label="Name"
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={nameError}
        />
        <TextField
          label="URL"
          value={form.url}
          placeholder="https://example.com/mcp"
          onChange={(e) => setForm({ ...form, url: e.target.value })}
          error={error?.fieldMessage('url')}
        />
        <TextArea
          label="Headers (JSON, stored encrypted)"
          value={form.headers}
          onChange={(e) => setForm({ ...form, headers: e.target.value })}
          error={headersError ?? error?.fieldMessage('headers')}
        />
        <label className="servers-check">
          <input
            type="checkbox"
            checked={form.trusted}
            onChange={(e) => setForm({ ...form, trusted: e.target.checked })}
          />{' '}
          Trusted (its annotations may lower a tool&apos;s risk)
        </label>
        <Button type="submit" variant="primary" disabled={put.isPending}>
          Add server
        </Button>
        {done && <Notice tone="success">{done}</Notice>}
        {put.error && !nameError && !(error && error.fields.length > 0) && (
          <Notice tone="danger">{put.error.message}</Notice>
        )}
      </form>
    </Card>
  );
}
