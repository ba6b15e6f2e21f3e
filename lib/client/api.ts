// The browser's one way to call the JSON API: non-2xx answers become an ApiError carrying the
// server's code, message and field-level errors, so forms can show them next to the field.
export interface ApiFieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: ApiFieldError[] = [],
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The message for one field path (e.g. `rules.0.tool`), if the server sent one. */
  fieldMessage(path: string): string | undefined {
    return this.fields.find((f) => f.path === path)?.message;
  }
}

export interface RequestOptions extends Omit<RequestInit, 'body'> {
  json?: unknown;
}

/** Fetches `url` and parses its JSON; throws ApiError for non-2xx answers. */
export async function apiFetch<T>(url: string, { json, headers, ...init }: RequestOptions = {}): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  const body = text ? (safeParse(text) as Record<string, unknown>) : {};
  if (!response.ok) throw toApiError(response.status, body);
  return body as T;
}

export function toApiError(status: number, body: Record<string, unknown>): ApiError {
  const error = (body.error ?? {}) as { code?: string; message?: string; fields?: ApiFieldError[] };
  return new ApiError(
    status,
    error.code ?? `http_${status}`,
    error.message ?? `Request failed (${status})`,
    error.fields ?? [],
    error as Record<string, unknown>,
  );
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: { code: 'bad_response', message: text.slice(0, 200) } };
  }
}
