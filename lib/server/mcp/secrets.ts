// Secrets of MCP servers added on the Servers page (`env`, `headers`) are stored encrypted:
// AES-256-GCM under a key derived (HKDF-SHA256) from GATEHOUSE_SECRET, or from the random secret
// kept in the database when it is unset. They are never sent back in full: views show the names
// with a mask, and a mask sent back keeps the stored value.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SECRET_MASK = '********';

export interface ServerSecrets {
  env?: Record<string, string>;
  headers?: Record<string, string>;
}

const keyOf = (secret: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'gatehouse-mcp-secrets', 'v1 aes-256-gcm', 32));

export function encryptSecrets(secrets: ServerSecrets, secret: string): string | null {
  if (Object.keys(secrets.env ?? {}).length === 0 && Object.keys(secrets.headers ?? {}).length === 0) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join('.');
}

/**
 * Stored secrets this secret cannot read: GATEHOUSE_SECRET changed since they were stored (or the
 * text is damaged). Nothing can bring them back; they must be entered again.
 */
export class UnreadableSecretsError extends Error {
  constructor() {
    super(
      'its stored secrets (env, headers) cannot be read: GATEHOUSE_SECRET changed since they were stored; enter them again',
    );
    this.name = 'UnreadableSecretsError';
  }
}

/** Throws UnreadableSecretsError when the text was not encrypted with this secret. */
export function decryptSecrets(text: string | null, secret: string): ServerSecrets {
  if (!text) return {};
  try {
    const [version, iv, tag, data] = text.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown format');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as ServerSecrets;
  } catch {
    // GCM's own error ("unable to authenticate data") says nothing an administrator can act on.
    throw new UnreadableSecretsError();
  }
}

/** Names with a mask: what a view may show of a map of secrets. */
export const masked = (values: Record<string, string> | undefined) =>
  Object.fromEntries(Object.keys(values ?? {}).map((k) => [k, SECRET_MASK]));

/** The new map, where a value sent back as the mask keeps the stored one. */
export function mergeMasked(next: Record<string, string> | undefined, stored: Record<string, string> | undefined) {
  if (!next) return undefined;
  return Object.fromEntries(
    Object.entries(next).flatMap(([k, v]) =>
      v === SECRET_MASK ? (stored?.[k] !== undefined ? [[k, stored[k]]] : []) : [[k, v]],
    ),
  );
}

/** The fields (`env.KEY`, `headers.Name`) sent back as the mask, i.e. asking to keep a stored value. */
export const maskedFields = (secrets: ServerSecrets) =>
  (['env', 'headers'] as const).flatMap((kind) =>
    Object.entries(secrets[kind] ?? {})
      .filter(([, value]) => value === SECRET_MASK)
      .map(([key]) => `${kind}.${key}`),
  );
