// The live check of an edited call (POST /api/chat/relay/:id/edit-check): accepted or why not (by
// field, or the deny rule), and the tool's preview of the edited call (a file write's diff), so
// what the dialog shows is what the decision will meet.
'use client';
import { useEffect, useState } from 'react';
import { apiFetch } from '@/lib/client/api';
import type { RelayRequest } from '@/lib/contract';

const CHECK_DELAY_MS = 250;

export type EditCheck =
  | { state: 'checking' }
  | { state: 'ok'; params: Record<string, unknown>; preview?: unknown }
  | { state: 'refused'; message: string; fields?: { path: string; message: string }[] };

export function useEditCheck(relay: RelayRequest, params: Record<string, unknown> | undefined): EditCheck | undefined {
  const key = params ? JSON.stringify(params) : undefined;
  const [checked, setChecked] = useState<{ key: string; result: EditCheck }>();
  useEffect(() => {
    if (key === undefined) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      apiFetch<{ ok: boolean; params?: Record<string, unknown>; preview?: unknown; message?: string; fields?: [] }>(
        `/api/chat/relay/${encodeURIComponent(relay.id)}/edit-check`,
        { method: 'POST', json: { sessionId: relay.sessionId, params: JSON.parse(key) }, signal: controller.signal },
      )
        .then((r) =>
          setChecked({
            key,
            result: r.ok
              ? { state: 'ok', params: r.params ?? {}, preview: r.preview }
              : { state: 'refused', message: r.message ?? 'Refused', fields: r.fields },
          }),
        )
        .catch((error: Error) => {
          if (!controller.signal.aborted)
            setChecked({ key, result: { state: 'refused', message: `Could not check the edit: ${error.message}` } });
        });
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, relay.id, relay.sessionId]);
  if (key === undefined) return undefined;
  if (checked?.key !== key) return { state: 'checking' };
  return checked.result;
}
