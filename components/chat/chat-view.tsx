// The chat page: pickers and status, the conversations to reopen, the conversation, the composer,
// and the approval dialog for whatever waits on a human. The URL names the run (`/?run=<id>`), so
// a reload or another tab opens the same conversation with its pending approvals; the tab also
// remembers it, so leaving for another page and coming back to `/` reopens it (New chat forgets).
'use client';
import { useRouter, useSearchParams } from 'next/navigation';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { ApprovalDialog } from '@/components/approvals/approval-dialog';
import { QueueNoticeBanner } from '@/components/approvals/queue-notice';
import { Button } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { useApprovalStore } from '@/lib/client/chat/approval-store';
import { useCancelRun, useSetRunMode } from '@/lib/client/chat/run';
import { currentRunMemory, sessionKeys } from '@/lib/client/chat/sessions';
import { useChatSettings } from '@/lib/client/chat/settings-store';
import type { Mode } from '@/lib/contract';
import { useChatSession } from '@/lib/client/chat/use-chat-session';
import { Composer } from './composer';
import { AgentPicker, ModePicker } from './pickers';
import { SessionList } from './session-list';
import { StatusBar } from './status-bar';
import { TranscriptView } from './transcript-view';
import { useFollow } from './use-follow';
import './chat.css';

export function ChatView() {
  const router = useRouter();
  const client = useQueryClient();
  const urlRunId = useSearchParams().get('run');
  const onRunStarted = useCallback(
    (runId: string, first: boolean) => {
      const url = `/?run=${encodeURIComponent(runId)}`;
      if (first) window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
      void client.invalidateQueries({ queryKey: sessionKeys.list });
    },
    [client],
  );
  const { transcript, send, reconnecting } = useChatSession({ urlRunId, onRunStarted });
  const { mode, agent, setMode, setAgent } = useChatSettings();
  const pending = useApprovalStore((s) => s.queue.length);
  const cancel = useCancelRun();
  const setRunMode = useSetRunMode();
  const { runId, runStatus } = transcript;

  // Coming back to `/` (the header's Chat link) reopens this tab's conversation; only on arrival,
  // so New chat, which forgets it first, stays new.
  useEffect(() => {
    const remembered = currentRunMemory.get();
    if (!urlRunId && remembered) router.replace(`/?run=${encodeURIComponent(remembered)}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on arrival only
  }, []);
  useEffect(() => {
    if (runId) currentRunMemory.set(runId);
  }, [runId]);
  const newChat = () => {
    currentRunMemory.set(null);
    router.push('/');
  };
  const live = runStatus === 'live' || runStatus === 'starting';
  const { behind, jump } = useFollow(transcript.items);

  const changeMode = (next: Mode) => {
    const previous = mode;
    setMode(next);
    if (runStatus !== 'live' || !runId) return;
    setRunMode.mutate(
      { runId, mode: next },
      // 409: the run has just finished, so the choice simply applies to the next run.
      { onError: (error) => !(error instanceof ApiError && error.status === 409) && setMode(previous) },
    );
  };

  return (
    <div className="chat">
      <div className="chat-toolbar">
        <AgentPicker value={agent} onChange={setAgent} />
        <ModePicker value={mode} onChange={changeMode} />
        <div className="chat-toolbar__actions">
          <Button variant="ghost" onClick={newChat} disabled={transcript.items.length === 0}>
            New chat
          </Button>
        </div>
      </div>
      <SessionList currentSessionId={transcript.sessionId} />
      <StatusBar mode={mode} runStatus={runStatus} pending={pending} reconnecting={reconnecting} />
      {setRunMode.isError && !(setRunMode.error instanceof ApiError && setRunMode.error.status === 409) && (
        <p role="alert">Could not change the mode: {setRunMode.error.message}</p>
      )}
      {cancel.isError && <p role="alert">Could not cancel the run: {cancel.error.message}</p>}
      <QueueNoticeBanner />
      <TranscriptView items={transcript.items} />
      <div className="chat-bottom">
        {behind && transcript.items.length > 0 && (
          <Button className="chat-jump" variant="secondary" onClick={jump}>
            Jump to latest ↓
          </Button>
        )}
        <Composer
          busy={live}
          onSend={(text) => {
            jump();
            void send(text);
          }}
          onStop={runStatus === 'live' && runId ? () => cancel.mutate(runId) : undefined}
          stopping={cancel.isPending}
        />
      </div>
      <ApprovalDialog />
    </div>
  );
}
