// The stdio part of the server form: the command, its arguments (one per line), its environment
// (JSON, stored encrypted, shown back as names with a mask) and its working directory.
'use client';
import { TextArea, TextField } from '@/components/ui';
import type { ServerFormState } from '@/lib/client/server-form';

export function StdioFields({
  form,
  setForm,
  fieldError,
  editing,
}: {
  form: ServerFormState;
  setForm(next: ServerFormState): void;
  fieldError(field: string): string | undefined;
  editing: boolean;
}) {
  return (
    <>
      <TextField
        label="Command"
        value={form.command}
        placeholder="npx"
        onChange={(e) => setForm({ ...form, command: e.target.value })}
        error={fieldError('command')}
      />
      <TextArea
        label="Arguments (one per line)"
        value={form.args}
        onChange={(e) => setForm({ ...form, args: e.target.value })}
        error={fieldError('args')}
      />
      <TextArea
        label="Environment (JSON, stored encrypted)"
        value={form.env}
        hint={
          editing
            ? 'A value left as ******** keeps the stored one.'
            : 'The server gets these and a scrubbed environment, never Gatehouse’s own variables.'
        }
        onChange={(e) => setForm({ ...form, env: e.target.value })}
        error={fieldError('env')}
      />
      <TextField
        label="Working directory"
        value={form.cwd}
        placeholder="(optional) /srv/data"
        onChange={(e) => setForm({ ...form, cwd: e.target.value })}
        error={fieldError('cwd')}
      />
    </>
  );
}
