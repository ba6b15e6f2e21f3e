// The rule editor page's client side: loads the policy once and hands the version on screen to
// every section, so each write is based on it; any 412 lands in the one conflict notice.
'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Notice } from '@/components/ui';
import { policyKeys, usePolicy } from '@/lib/client/policy';
import { ConflictNotice } from './conflict-notice';
import { decidingRule } from './decision-view';
import { GrantsList } from './grants-list';
import { ImportExportPanel } from './import-export-panel';
import { PolicyTestsPanel } from './policy-tests-panel';
import { RulesEditor } from './rules-editor';
import { ShadowPanel } from './shadow-panel';
import { TestCallPanel, type TestedDecision } from './test-call-panel';
import { VersionHistory } from './version-history';
import './rules.css';

export function RulesView() {
  const policy = usePolicy();
  const client = useQueryClient();
  const [conflict, setConflict] = useState<number | null>(null);
  const [tested, setTested] = useState<TestedDecision | null>(null);
  // Remount the editors on reload so no form keeps the stale version it was opened on.
  const [generation, setGeneration] = useState(0);

  async function reload() {
    await client.invalidateQueries({ queryKey: policyKeys.all });
    setConflict(null);
    setGeneration((g) => g + 1);
  }

  if (policy.isPending) return <p className="rules-muted">Loading the rules…</p>;
  if (policy.isError) return <Notice tone="danger">Could not load the rules: {policy.error.message}</Notice>;
  const current = policy.data;
  const decidingIndex = tested && tested.version === current.version ? decidingRule(tested.decision)?.index : undefined;
  return (
    <div className="rules-page" key={generation}>
      {conflict !== null && <ConflictNotice version={conflict} onReload={reload} />}
      <RulesEditor current={current} decidingIndex={decidingIndex} onConflict={setConflict} />
      <TestCallPanel current={current} result={tested} onResult={setTested} />
      <PolicyTestsPanel current={current} onConflict={setConflict} />
      <ImportExportPanel current={current} onConflict={setConflict} />
      <ShadowPanel current={current} onConflict={setConflict} />
      <GrantsList />
      <VersionHistory current={current} onConflict={setConflict} />
    </div>
  );
}
