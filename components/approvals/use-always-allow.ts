// Whether the dialog offers Always Allow: the verdict the server computed when the relay was
// raised (the suggested rules cover this very call, or why not), and, once an admin edits a
// pattern inline, the server's live re-check of the edited rules (the check the decision meets).
'use client';
import { useEffect, useState } from 'react';
import { apiFetch } from '@/lib/client/api';
import type { RelayRequest } from '@/lib/contract';
import type { AlwaysAllowVerdict, Rule } from '@/lib/policy/types';

const CHECK_DELAY_MS = 250;

export type AlwaysAllowState = AlwaysAllowVerdict & { checking?: boolean };

/** The relay's own verdict; relays raised by older versions have none: offered when something is suggested. */
export function relayVerdict(relay: RelayRequest): AlwaysAllowVerdict {
  return (
    relay.alwaysAllow ??
    (relay.suggestedRules.length > 0
      ? { covers: true }
      : { covers: false, reason: 'No rule can be suggested for this call.' })
  );
}

export function useAlwaysAllow(relay: RelayRequest, edited: readonly Rule[] | undefined): AlwaysAllowState {
  const key = edited ? JSON.stringify(edited) : undefined;
  const [checked, setChecked] = useState<{ key: string; verdict: AlwaysAllowVerdict }>();
  useEffect(() => {
    if (key === undefined) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      apiFetch<AlwaysAllowVerdict>(`/api/chat/relay/${encodeURIComponent(relay.id)}/check`, {
        method: 'POST',
        json: { sessionId: relay.sessionId, rule: JSON.parse(key) },
        signal: controller.signal,
      })
        .then((verdict) => setChecked({ key, verdict }))
        .catch((error: Error) => {
          if (!controller.signal.aborted)
            setChecked({ key, verdict: { covers: false, reason: `The rule could not be checked: ${error.message}` } });
        });
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, relay.id, relay.sessionId]);
  if (key === undefined) return relayVerdict(relay);
  if (checked?.key !== key) return { covers: false, checking: true };
  return checked.verdict;
}
