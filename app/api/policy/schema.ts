// Request parsing shared by the policy routes: the body (validated fully by the engine) and the
// If-Match version.
import { z } from 'zod';
import { AppError } from '@/lib/server/http/errors';

/** `{ policy, note? }`, or a bare policy document. The engine validates the policy itself. */
export const PolicyBodySchema = z
  .object({ policy: z.unknown().optional(), note: z.string().max(500).optional() })
  .passthrough()
  .transform((body) => body as { policy?: unknown; note?: string } & Record<string, unknown>);

export function expectedVersion(request: Request): number {
  const header = request.headers.get('if-match');
  if (!header)
    throw new AppError(
      'precondition_required',
      428,
      'Send If-Match with the policy version you edited (from GET /api/policy)',
      { fields: [{ path: 'If-Match', message: 'required' }] },
    );
  const version = Number(header.replace(/^W\//, '').replaceAll('"', '').trim());
  if (!Number.isInteger(version) || version < 0)
    throw AppError.badRequest('If-Match must be a policy version', [{ path: 'If-Match', message: `got ${header}` }]);
  return version;
}
