// The rule editor page's client side: loads the policy once and hands the version on screen to
// every section, so each write is based on it; any 412 lands in the one conflict notice. A section
// nav on top reaches every section by its anchor.
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
import { RulesSection, SECTIONS, SectionNav } from './section-nav';
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
  const shown = [
    SECTIONS.rules,
    SECTIONS.testCall,
    SECTIONS.policyTests,
    SECTIONS.importExport,
    SECTIONS.shadow,
    SECTIONS.grants,
    SECTIONS.history,
  ];
  return (
    <div className="rules-page" key={generation}>
      <SectionNav sections={shown} />
      {conflict !== null && <ConflictNotice version={conflict} onReload={reload} />}
      <RulesSection entry={SECTIONS.rules}>
        <RulesEditor current={current} decidingIndex={decidingIndex} onConflict={setConflict} />
      </RulesSection>
      <RulesSection entry={SECTIONS.testCall}>
        <TestCallPanel current={current} result={tested} onResult={setTested} />
      </RulesSection>
      <RulesSection entry={SECTIONS.policyTests}>
        <PolicyTestsPanel current={current} onConflict={setConflict} />
      </RulesSection>
      <RulesSection entry={SECTIONS.importExport}>
        <ImportExportPanel current={current} onConflict={setConflict} />
      </RulesSection>
      <RulesSection entry={SECTIONS.shadow}>
        <ShadowPanel current={current} onConflict={setConflict} />
      </RulesSection>
      <RulesSection entry={SECTIONS.grants}>
        <GrantsList />
      </RulesSection>
      <RulesSection entry={SECTIONS.history}>
        <VersionHistory current={current} onConflict={setConflict} />
      </RulesSection>
    </div>
  );
}
