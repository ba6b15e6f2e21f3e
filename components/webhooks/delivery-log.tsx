// One endpoint's latest deliveries: event, status, attempts, the last answer or error.
'use client';
import { Table } from '@/components/ui';
import { useDeliveries } from '@/lib/client/webhooks';

export function DeliveryLog({ endpointId, url }: { endpointId: string; url: string }) {
  const deliveries = useDeliveries(endpointId);
  if (!deliveries.data?.length) return <p>No deliveries yet.</p>;
  return (
    <Table caption={`Deliveries to ${url}`}>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last answer</th>
          <th scope="col">Delivery id</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.data.map((d) => (
          <tr key={d.id}>
            <td>{d.event}</td>
            <td>{d.status}</td>
            <td>{d.attempts}</td>
            <td>{d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : '')}</td>
            <td>
              <code>{d.id}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
