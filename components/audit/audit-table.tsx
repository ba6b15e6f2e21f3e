// The audit entries as a table (it scrolls sideways on a phone, inside the Table wrapper).
import { Table } from '@/components/ui';
import type { AuditEntry } from '@/lib/contract';
import { AuditRow } from './audit-row';
import '@/components/runs/table-cards.css';

const COLUMNS = ['Time', 'Kind', 'Action', 'Tool', 'Who', 'Why', 'Waited', 'Run', 'Agent', 'Params'];

export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <Table caption="Audit log, newest first" className="audit-table cards-at-phone">
      <thead>
        <tr>
          {COLUMNS.map((name) => (
            <th key={name} scope="col">
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <AuditRow key={entry.id} entry={entry} />
        ))}
      </tbody>
    </Table>
  );
}
