// Import and export side by side in one card.
import { Card, CardHeader } from '@/components/ui';
import type { StoredPolicy } from '@/lib/client/policy';
import { ExportPanel } from './export-panel';
import { ImportPanel } from './import-panel';

export function ImportExportPanel({
  current,
  onConflict,
}: {
  current: StoredPolicy;
  onConflict: (version: number) => void;
}) {
  return (
    <Card aria-labelledby="import-export-heading">
      <CardHeader id="import-export-heading" title="Import and export" />
      <div className="rules-stack">
        <ImportPanel current={current} onConflict={onConflict} />
        <ExportPanel current={current} />
      </div>
    </Card>
  );
}
