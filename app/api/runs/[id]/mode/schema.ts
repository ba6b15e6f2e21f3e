// Request schema of POST /api/runs/:id/mode.
import { z } from 'zod';
import { ModeSchema } from '@/lib/policy';

export const SetModeSchema = z.object({ mode: ModeSchema });
