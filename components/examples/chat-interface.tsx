// The seed design's "Web UI Example" (React component with relay approval), as the design writes
// it. Changed only where Gatehouse must differ: the transports' import path, the model (`offline`,
// which turns "Deploy to staging" into a bash call), `'use client'` and `export` (a Next page
// renders it), the unused `useEffect` import dropped (lint), and `pendingRelay` typed as the relay
// event (the design's `ServerEvent | null` would not let `.id`/`.tool` type-check on the union).
'use client';
import { useState } from 'react';
import { createSSETransport, createHTTPTransport } from '@/lib/client/transport';
import type { ServerEvent } from '@/lib/client/transport';

export function ChatInterface() {
  const [events, setEvents] = useState<ServerEvent[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [pendingRelay, setPendingRelay] = useState<Extract<ServerEvent, { type: 'relay' }> | null>(null);

  const sse = createSSETransport({ baseUrl: '/api' });
  const http = createHTTPTransport({ baseUrl: '/api' });

  const startChat = async (input: string) => {
    setEvents([]);
    setSessionId(null);

    for await (const event of sse.stream({
      model: 'offline',
      messages: [{ role: 'user', content: input }],
      permissions: { allowlist: [] },
    })) {
      setEvents((prev) => [...prev, event]);

      if (event.type === 'connected') {
        setSessionId(event.sessionId);
      }

      if (event.type === 'relay') {
        setPendingRelay(event);
      }
    }
  };

  const handleApprove = async (always: boolean) => {
    if (!pendingRelay || !sessionId) return;

    await http.resolveRelay(sessionId, pendingRelay.id, {
      approved: true,
      always,
    });

    setPendingRelay(null);
  };

  const handleDeny = async () => {
    if (!pendingRelay || !sessionId) return;

    await http.resolveRelay(sessionId, pendingRelay.id, {
      approved: false,
      reason: 'User denied',
    });

    setPendingRelay(null);
  };

  return (
    <div>
      <button onClick={() => startChat('Deploy to staging')}>Start</button>

      <div className="events">
        {events.map((event, i) => (
          <div key={i}>
            {event.type === 'text' && <p>{event.content}</p>}
            {event.type === 'tool_call' && <p>📞 {event.name}</p>}
          </div>
        ))}
      </div>

      {pendingRelay && (
        <div className="modal">
          <h3>⚠️ Permission Required</h3>
          <p>Tool: {pendingRelay.tool}</p>
          <pre>{JSON.stringify(pendingRelay.params, null, 2)}</pre>
          <button onClick={() => handleApprove(false)}>Approve Once</button>
          <button onClick={() => handleApprove(true)}>Always Allow</button>
          <button onClick={handleDeny}>Deny</button>
        </div>
      )}
    </div>
  );
}
