// The agent profile and mode pickers. The agent applies to the next run; the mode applies to the
// live run at once (POST /api/runs/:id/mode) or else to the next run.
'use client';
import { SelectField } from '@/components/ui';
import { useAgents } from '@/lib/client/chat/agents';
import { MODES, modeLabel, type Mode } from '@/lib/contract';

export function AgentPicker({ value, onChange }: { value: string; onChange(agent: string): void }) {
  const agents = useAgents();
  const list = agents.data?.agents ?? [];
  const selected = value || agents.data?.defaultAgent || '';
  const options = list.length > 0 ? list.map((a) => ({ value: a.name, label: a.name })) : [{ value: '', label: agents.isError ? 'Default (profiles unavailable)' : 'Loading…' }];
  const description = list.find((a) => a.name === selected)?.description;
  return <SelectField label="Agent" value={selected} options={options} disabled={list.length === 0} hint={description} onChange={(e) => onChange(e.target.value)} />;
}

export function ModePicker({ value, onChange, disabled }: { value: Mode; onChange(mode: Mode): void; disabled?: boolean }) {
  return <SelectField label="Mode" value={value} disabled={disabled} options={MODES.map((m) => ({ value: m, label: modeLabel(m) }))} onChange={(e) => onChange(e.target.value as Mode)} />;
}
