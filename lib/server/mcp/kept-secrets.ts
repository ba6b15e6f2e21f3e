// What an edit of a stored server may keep of its stored secrets (a value sent back as the mask):
// only what can still be read (GATEHOUSE_SECRET unchanged), and a header only for the origin it
// was stored for. Either refusal is an AppError naming the fields to retype.
import { isHttp, type ServerConfig } from '../../agent/tools/mcp/config';
import { AppError } from '../http/errors';
import { decryptSecrets, maskedFields, SECRET_MASK, UnreadableSecretsError, type ServerSecrets } from './secrets';

/**
 * The stored secrets an edit may keep. When they no longer decrypt (GATEHOUSE_SECRET changed), an
 * edit that gives every value in full is stored as any other; one that sends a mask back asks to
 * keep a value nobody can read, and is refused naming those fields (409: it is the stored state,
 * not the request, that is at fault).
 */
export function storedSecrets(name: string, text: string | null, secret: string, next: ServerSecrets): ServerSecrets {
  try {
    return decryptSecrets(text, secret);
  } catch (error) {
    if (!(error instanceof UnreadableSecretsError)) throw error;
    const kept = maskedFields(next);
    if (kept.length === 0) return {};
    throw new AppError(
      'conflict:mcp_server_secrets',
      409,
      `The stored secrets of MCP server "${name}" cannot be read (GATEHOUSE_SECRET changed since they were stored): enter every secret value again`,
      {
        fields: kept.map((path) => ({
          path,
          message: 'enter the value again: the stored one cannot be read since GATEHOUSE_SECRET changed',
        })),
      },
    );
  }
}

const originOf = (url: unknown) => {
  try {
    return typeof url === 'string' ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A header kept by its mask goes only where it went before: moving the URL to another origin with
 * the header left masked would send a secret nobody may read back to a host of the editor's
 * choosing. Retyping it (whoever knows it) is fine.
 */
export function refuseKeptHeadersElsewhere(
  before: Record<string, unknown> | undefined,
  next: ServerConfig,
  stored: Record<string, string> | undefined,
) {
  if (!isHttp(next) || !next.headers || originOf(before?.url) === originOf(next.url)) return;
  const kept = Object.entries(next.headers).filter(([k, v]) => v === SECRET_MASK && stored?.[k] !== undefined);
  if (kept.length === 0) return;
  throw AppError.badRequest(
    'A stored header is sent only to the origin it was stored for: retype it to use it with the new URL',
    kept.map(([k]) => ({
      path: `headers.${k}`,
      message: `retype it: the URL's origin changed, and the stored value is only sent to ${originOf(before?.url) ?? 'its first URL'}`,
    })),
  );
}
