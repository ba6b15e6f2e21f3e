// The permission rule editor: rules, test a call, import / export, grants and version history.
import type { Metadata } from 'next';
import { RequireRole } from '@/app/_auth/require-role';
import { RulesView } from '@/components/rules/rules-view';

export const metadata: Metadata = { title: 'Rules' };

export default function RulesPage() {
  // Editing rules is the admin's job; other roles get the "no access" page.
  return (
    <RequireRole action="policy:edit" pathname="/rules">
      <h1 className="page-title">Rules</h1>
      <p className="page-lead">Which tool calls run on their own, which wait for a person, and which never run.</p>
      <RulesView />
    </RequireRole>
  );
}
