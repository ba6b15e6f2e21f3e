// The Servers page's form as data: its fields from a server's view (to edit it) and back to one
// `mcpServers` entry for PUT /api/servers/:name. Pure. Secrets come in as their names with the
// mask and go back unchanged unless retyped (the server keeps the stored value for a mask); what
// the form does not show (`paramKinds`, `timeoutMs`) is carried over, so an edit never drops it.
import type { McpServerView } from '@/lib/contract';

export type ServerKind = 'http' | 'stdio';

export interface ServerFormState {
  name: string;
  type: ServerKind;
  url: string;
  /** JSON object of header -> value. */
  headers: string;
  command: string;
  /** One argument per line. */
  args: string;
  /** JSON object of variable -> value. */
  env: string;
  cwd: string;
  trusted: boolean;
}

export const EMPTY_SERVER_FORM: ServerFormState = {
  name: '',
  type: 'http',
  url: '',
  headers: '',
  command: '',
  args: '',
  env: '',
  cwd: '',
  trusted: false,
};

/** What the form keeps of a server without showing it. */
export type CarriedFields = Pick<McpServerView, 'paramKinds' | 'timeoutMs'>;

const json = (map: Record<string, string> | undefined) =>
  map && Object.keys(map).length > 0 ? JSON.stringify(map, null, 2) : '';

export function formFromView(view: McpServerView): ServerFormState {
  return {
    name: view.name,
    type: view.type,
    url: view.url ?? '',
    headers: json(view.headers),
    command: view.command ?? '',
    args: (view.args ?? []).join('\n'),
    env: json(view.env),
    cwd: view.cwd ?? '',
    trusted: view.trusted,
  };
}

export interface FormFieldError {
  field: 'headers' | 'env';
  message: string;
}

function parseMap(text: string, field: FormFieldError['field'], example: string) {
  if (!text.trim()) return { value: undefined };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { value: value as Record<string, unknown> };
  } catch {
    // reported below, as for any other non-object
  }
  return { error: { field, message: `must be a JSON object, e.g. ${example}` } };
}

/** The entry to PUT, or the fields the browser can already tell are wrong. */
export function entryFromForm(
  form: ServerFormState,
  carried?: CarriedFields,
): { entry: Record<string, unknown>; errors?: never } | { entry?: never; errors: FormFieldError[] } {
  const kept = {
    ...(carried && Object.keys(carried.paramKinds).length > 0 ? { paramKinds: carried.paramKinds } : {}),
    ...(carried?.timeoutMs ? { timeoutMs: carried.timeoutMs } : {}),
    ...(form.trusted ? { trusted: true } : {}),
  };
  if (form.type === 'http') {
    const headers = parseMap(form.headers, 'headers', '{"Authorization": "Bearer ..."}');
    if (headers.error) return { errors: [headers.error] };
    return {
      entry: { type: 'http', url: form.url.trim(), ...(headers.value ? { headers: headers.value } : {}), ...kept },
    };
  }
  const env = parseMap(form.env, 'env', '{"API_KEY": "..."}');
  if (env.error) return { errors: [env.error] };
  const args = form.args
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '');
  return {
    entry: {
      command: form.command.trim(),
      ...(args.length > 0 ? { args } : {}),
      ...(env.value ? { env: env.value } : {}),
      ...(form.cwd.trim() ? { cwd: form.cwd.trim() } : {}),
      ...kept,
    },
  };
}

/** The server's message for a field or anything under it (`env` for `env.TOKEN`). */
export function messageFor(fields: readonly { path: string; message: string }[], field: string): string | undefined {
  const hit = fields.find((f) => f.path === field || f.path.startsWith(`${field}.`));
  if (!hit) return undefined;
  return hit.path === field ? hit.message : `${hit.path.slice(field.length + 1)}: ${hit.message}`;
}
