// A role as a badge, one colour per role everywhere (header, users table).
import { Badge, type BadgeTone } from '@/components/ui';
import type { Role } from '@/lib/contract';

const TONE: Record<Role, BadgeTone> = { admin: 'warning', approver: 'info', user: 'neutral' };

export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={TONE[role] ?? 'neutral'}>{role}</Badge>;
}
