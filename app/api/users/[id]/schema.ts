// Body of PATCH /api/users/:id: any of role, disabled and display name; at least one.
import { z } from 'zod';
import { RoleSchema } from '@/lib/auth';

export const UpdateUserSchema = z
  .object({
    role: RoleSchema.optional(),
    disabled: z.boolean().optional(),
    displayName: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .refine((body) => body.role !== undefined || body.disabled !== undefined || body.displayName !== undefined, {
    message: 'send role, disabled or displayName',
  });
