// "Test a call": a tool, its params as JSON, an agent and a mode in; the engine's decision out.
// The call is evaluated against the stored policy, and the answer names the version it used: when
// that is the version on screen, the deciding rule's index points into the table the user sees.
// An answer from a newer version than the one on screen reloads the rules, so the page catches up
// instead of calling every later test stale.
'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Card, CardHeader, Notice, SelectField, TextArea, TextField } from '@/components/ui';
import { policyKeys, useEvaluateCall, type StoredPolicy } from '@/lib/client/policy';
import type { Decision, Mode } from '@/lib/policy/types';
import { KNOWN_TOOLS, MODE_OPTIONS } from './constants';
import { DecisionView } from './decision-view';

export interface TestedDecision {
  decision: Decision;
  version: number;
}

function parseParams(text: string): { params: Record<string, unknown> } | { error: string } {
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { error: 'Params must be a JSON object, e.g. {"command": "ls"}' };
    return { params: value as Record<string, unknown> };
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
}

export function TestCallPanel({
  current,
  result,
  onResult,
}: {
  current: StoredPolicy;
  result: TestedDecision | null;
  onResult: (r: TestedDecision | null) => void;
}) {
  const evaluate = useEvaluateCall();
  const client = useQueryClient();
  const [tool, setTool] = useState('bash');
  const [agent, setAgent] = useState('');
  const [mode, setMode] = useState<Mode>('default');
  const [paramsText, setParamsText] = useState('{\n  "command": "git status && npm test"\n}');
  const [errors, setErrors] = useState<{ tool?: string; params?: string; form?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseParams(paramsText);
    const next = {
      tool: tool.trim() ? undefined : 'Name the tool to call',
      params: 'error' in parsed ? parsed.error : undefined,
    };
    setErrors(next);
    if (next.tool || !('params' in parsed)) return;
    try {
      const { decision, version } = await evaluate.mutateAsync({
        call: { tool: tool.trim(), params: parsed.params, ...(agent.trim() ? { agent: agent.trim() } : {}) },
        mode,
      });
      onResult({ decision, version: version ?? current.version });
      if (version !== undefined && version > current.version)
        void client.invalidateQueries({ queryKey: policyKeys.current() });
    } catch (error) {
      onResult(null);
      setErrors({ form: error instanceof Error ? error.message : 'The test failed' });
    }
  }

  return (
    <Card aria-labelledby="test-call-heading">
      <CardHeader id="test-call-heading" title="Test a call" />
      <form className="rules-stack" onSubmit={submit} noValidate>
        <div className="rules-form__grid">
          <TextField
            label="Tool"
            value={tool}
            list="test-call-tools"
            error={errors.tool}
            onChange={(e) => setTool(e.target.value)}
            autoComplete="off"
          />
          <TextField
            label="Agent"
            value={agent}
            placeholder="main"
            hint="Empty: the main agent."
            onChange={(e) => setAgent(e.target.value)}
            autoComplete="off"
          />
          <SelectField
            label="Mode"
            value={mode}
            options={MODE_OPTIONS}
            onChange={(e) => setMode(e.target.value as Mode)}
          />
        </div>
        <datalist id="test-call-tools">
          {KNOWN_TOOLS.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <TextArea
          label="Params (JSON)"
          value={paramsText}
          error={errors.params}
          rows={4}
          spellCheck={false}
          onChange={(e) => setParamsText(e.target.value)}
        />
        {errors.form && <Notice tone="danger">{errors.form}</Notice>}
        <div>
          <Button type="submit" variant="primary" disabled={evaluate.isPending}>
            Test call
          </Button>
        </div>
      </form>
      {result && result.version === current.version && (
        <DecisionView decision={result.decision} policy={current.policy} />
      )}
      {result && result.version > current.version && (
        <p className="rules-muted">Someone saved newer rules; loading them…</p>
      )}
      {result && result.version < current.version && (
        <p className="rules-muted">The rules changed since this test; run it again.</p>
      )}
    </Card>
  );
}
