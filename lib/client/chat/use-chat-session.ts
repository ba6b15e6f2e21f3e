// The chat's conductor: starts runs (POST /api/chat), opens existing ones from the URL (GET the
// run, then its events from the start), keeps one event stream per tab, and routes each event to
// the transcript reducer, the approval queue and the mode picker.
'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent, useReducer, useRef, useState } from 'react';
import { ApiError } from '../api';
import { useApprovalStore } from './approval-store';
import { fetchRun, runQuery } from './run';
import { fetchSession, sessionKeys } from './sessions';
import { useChatSettings } from './settings-store';
import { followRun, startChat, type StreamCallbacks } from './stream';
import { emptyTranscript, toMessages, transcriptReducer, type TranscriptStatus } from './transcript';
import { isFinishedStatus, type LoggedEvent } from '@/lib/contract';

export interface ChatSessionOptions {
  /** The run named in the URL (`/?run=<id>`), or null for a new conversation. */
  urlRunId: string | null;
  /** A run started here: the caller puts it in the URL. */
  onRunStarted(runId: string, firstOfConversation: boolean): void;
}

export function useChatSession({ urlRunId, onRunStarted }: ChatSessionOptions) {
  const client = useQueryClient();
  const [transcript, dispatch] = useReducer(transcriptReducer, emptyTranscript);
  const [reconnecting, setReconnecting] = useState(false);
  const latest = useRef(transcript);
  const currentRun = useRef<string | null>(null);
  const stream = useRef<AbortController | null>(null);
  /** Events up to this sequence (per run) are history: they update the queue without notices. */
  const replayUntil = useRef<Record<string, number>>({});

  useEffect(() => {
    latest.current = transcript;
  }, [transcript]);

  const onEvent = useCallback((event: LoggedEvent) => {
    setReconnecting(false);
    dispatch({ type: 'event', event });
    const approvals = useApprovalStore.getState();
    if (event.type === 'relay') approvals.add(event);
    else if (event.type === 'relay_progress')
      approvals.progressed(event.relayId, {
        approvals: event.approvals,
        needed: event.needed,
        ...(event.params ? { params: event.params } : {}),
      });
    else if (event.type === 'relay_resolved')
      approvals.resolved(event.relayId, event, event.seq > (replayUntil.current[event.runId] ?? 0));
    else if (event.type === 'mode_changed' && event.runId === currentRun.current)
      useChatSettings.getState().setMode(event.mode);
  }, []);

  const callbacks = useCallback(
    (extra: Partial<StreamCallbacks> = {}): StreamCallbacks => ({
      onEvent,
      onReconnecting: () => setReconnecting(true),
      stillLive: async (runId) => {
        const detail = await fetchRun(runId);
        return detail.live || !isFinishedStatus(detail.run.status);
      },
      ...extra,
    }),
    [onEvent],
  );

  const openStream = () => {
    stream.current?.abort();
    const controller = new AbortController();
    stream.current = controller;
    return controller;
  };

  const load = useEffectEvent(async (runId: string) => {
    const controller = openStream();
    currentRun.current = runId;
    useApprovalStore.getState().reset();
    try {
      const { run, pendingRelays, live } = await client.fetchQuery(runQuery(runId));
      if (controller.signal.aborted) return;
      // Every turn of the session up to this run comes back with its tool cards; this run's own
      // events follow from its stream.
      const session = await client.fetchQuery({
        queryKey: sessionKeys.detail(run.sessionId),
        queryFn: () => fetchSession(run.sessionId),
        staleTime: 0,
      });
      if (controller.signal.aborted) return;
      const index = session.turns.findIndex((turn) => turn.run.id === runId);
      const earlier = session.turns.slice(0, Math.max(0, index));
      replayUntil.current = { [runId]: run.lastEventSeq };
      const runStatus: TranscriptStatus =
        live || !isFinishedStatus(run.status) ? 'live' : (run.status as TranscriptStatus);
      dispatch({
        type: 'load',
        runId,
        sessionId: run.sessionId,
        earlier,
        prompt: session.turns[index]?.prompt ?? '',
        runStatus,
      });
      useChatSettings.getState().setMode(run.mode ?? 'default');
      if (run.agent) useChatSettings.getState().setAgent(run.agent);
      for (const relay of pendingRelays) useApprovalStore.getState().add(relay);
      await followRun(runId, 0, callbacks(), controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      dispatch({
        type: 'failed',
        message:
          error instanceof ApiError && error.status === 404
            ? 'This run does not exist.'
            : `Could not load the run: ${(error as Error).message}`,
      });
    } finally {
      if (stream.current === controller) setReconnecting(false);
    }
  });

  const reset = useEffectEvent(() => {
    stream.current?.abort();
    currentRun.current = null;
    useApprovalStore.getState().reset();
    dispatch({ type: 'reset' });
  });

  useEffect(() => {
    if (urlRunId === currentRun.current) return;
    if (urlRunId) void load(urlRunId);
    else reset();
  }, [urlRunId]);

  useEffect(() => () => stream.current?.abort(), []);

  const send = useCallback(
    async (text: string) => {
      const before = latest.current;
      const messages = [...toMessages(before), { role: 'user' as const, content: text }];
      dispatch({ type: 'send', text });
      const controller = openStream();
      const { mode, agent } = useChatSettings.getState();
      let runStarted = false;
      try {
        const onConnected = (ids: { runId: string; sessionId: string }) => {
          // Before any of the run's events: they are all live, and `done` must find its run.
          currentRun.current = ids.runId;
          replayUntil.current = { ...replayUntil.current, [ids.runId]: 0 };
          dispatch({ type: 'started', ...ids });
        };
        const started = await startChat(
          { messages, sessionId: before.sessionId, mode, ...(agent ? { agent } : {}) },
          callbacks({ onConnected }),
          controller.signal,
        );
        runStarted = true;
        onRunStarted(started.runId, !before.sessionId);
        await started.finished;
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof ApiError ? error.message : (error as Error).message;
        dispatch({
          type: 'failed',
          message: runStarted
            ? `Lost the run's events: ${message}. Reload to try again.`
            : `Could not start the run: ${message}`,
        });
      }
    },
    [callbacks, onRunStarted],
  );

  return { transcript, send, reconnecting };
}
