// The Tests panel: the examples the policy carries ("this call must be denied"), run against the
// rules on screen, added, removed and saved. Saving sends the rules of the version on screen with
// these tests (If-Match), and the server refuses a policy whose tests fail (422), so the panel
// runs them again to show what each failing test got.
'use client';
import { useState } from 'react';
import { Badge, Button, Card, CardHeader, Notice, Revealed, Table } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { conflictVersion, useRunPolicyTests, useSavePolicy, type StoredPolicy } from '@/lib/client/policy';
import { failedTests, reportKey, type ShownReport } from '@/lib/client/policy-tests';
import type { Action, PolicyTest, PolicyTestResult } from '@/lib/policy/types';
import { PolicyTestForm } from './policy-test-form';

const label = (index: number, test: PolicyTest) => `test #${index + 1}${test.name ? ` “${test.name}”` : ''}`;

function describeError(error: unknown): string {
  if (error instanceof ApiError && error.fields.length > 0 && error.status !== 422)
    return error.fields.map((f) => `${f.path || '(policy)'}: ${f.message}`).join('; ');
  return error instanceof Error ? error.message : 'The request failed';
}

export function PolicyTestsPanel({
  current,
  onConflict,
}: {
  current: StoredPolicy;
  onConflict: (version: number) => void;
}) {
  const run = useRunPolicyTests();
  const save = useSavePolicy();
  const [tests, setTests] = useState<PolicyTest[]>(() => current.policy.tests ?? []);
  const [shown, setShown] = useState<ShownReport | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const [adding, setAdding] = useState(false);
  const unsaved = JSON.stringify(current.policy.tests ?? []) !== JSON.stringify(tests);
  const report = shown?.key === reportKey(tests, current.version) ? shown.report : null;
  const busy = run.isPending || save.isPending;

  const draftPolicy = (list: PolicyTest[]) => {
    const { tests: _saved, ...rest } = current.policy;
    return list.length > 0 ? { ...rest, tests: list } : rest;
  };

  async function runTests(list = tests): Promise<void> {
    try {
      const result = await run.mutateAsync(draftPolicy(list));
      setShown({ key: reportKey(list, current.version), report: result });
    } catch (error) {
      setMessage({ tone: 'danger', text: `Could not run the tests: ${describeError(error)}` });
    }
  }

  async function saveTests() {
    setMessage(null);
    try {
      const saved = await save.mutateAsync({
        policy: draftPolicy(tests),
        version: current.version,
        note: 'Saved the policy tests',
      });
      setMessage({
        tone: 'success',
        text: `Saved ${tests.length} ${tests.length === 1 ? 'test' : 'tests'}. The rules are now version ${saved.version}.`,
      });
    } catch (error) {
      const conflict = conflictVersion(error);
      if (conflict !== undefined) return onConflict(conflict);
      setMessage({ tone: 'danger', text: describeError(error) });
      if (failedTests(error)) await runTests();
    }
  }

  function change(next: PolicyTest[]) {
    setTests(next);
    setMessage(null);
  }

  return (
    <Card aria-labelledby="policy-tests-heading">
      <CardHeader
        id="policy-tests-heading"
        title="Policy tests"
        actions={
          <Button variant="primary" onClick={() => setAdding(true)} disabled={adding}>
            Add test
          </Button>
        }
      />
      <p className="rules-muted">
        Calls the rules must decide as stated. They run on every save: a policy whose tests fail is not saved.
      </p>
      {adding && (
        <PolicyTestForm
          onAdd={(test) => {
            change([...tests, test]);
            setAdding(false);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {tests.length === 0 ? (
        <p className="rules-muted">No tests yet.</p>
      ) : (
        <TestsTable
          tests={tests}
          results={report?.results}
          disabled={busy}
          onRemove={(i) => change(tests.filter((_, j) => j !== i))}
          onExpect={(i, expect) => change(tests.map((t, j) => (j === i ? { ...t, expect } : t)))}
        />
      )}
      {report && (
        <Notice tone={report.failed > 0 ? 'danger' : 'success'}>
          {report.results.length} {report.results.length === 1 ? 'test' : 'tests'}: {report.passed} passed,{' '}
          {report.failed} failed.
        </Notice>
      )}
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <div className="rules-actions">
        <Button onClick={() => runTests()} disabled={busy || tests.length === 0}>
          Run tests
        </Button>
        <Button variant="primary" onClick={saveTests} disabled={busy || !unsaved}>
          Save tests
        </Button>
        {unsaved && <span className="rules-muted">Unsaved changes</span>}
      </div>
    </Card>
  );
}

interface TestsTableProps {
  tests: PolicyTest[];
  results?: PolicyTestResult[];
  disabled: boolean;
  onRemove: (index: number) => void;
  onExpect: (index: number, expect: Action) => void;
}

function TestsTable({ tests, results, disabled, onRemove, onExpect }: TestsTableProps) {
  return (
    <Table caption="Policy tests">
      <thead>
        <tr>
          <th scope="col">Test</th>
          <th scope="col">Call</th>
          <th scope="col">Mode</th>
          <th scope="col">Expected</th>
          <th scope="col">Result</th>
          <th scope="col">
            <span className="ui-visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tests.map((test, index) => {
          const result = results?.[index];
          const name = label(index, test);
          return (
            <tr key={index}>
              <td>
                <Revealed text={name} />
              </td>
              <td>
                <code className="rules-code">
                  <Revealed
                    text={`${test.call.tool}${test.call.agent ? ` (agent ${test.call.agent})` : ''} ${JSON.stringify(test.call.params)}`}
                  />
                </code>
              </td>
              <td>{test.mode ?? 'default'}</td>
              <td>
                <Badge>{test.expect}</Badge>
              </td>
              <td>
                {!result ? (
                  <span className="rules-muted">not run</span>
                ) : result.pass ? (
                  <Badge tone="success">pass</Badge>
                ) : (
                  <>
                    <Badge tone="danger">fail</Badge> got <Badge>{result.got}</Badge>
                    <p className="rules-muted">
                      <Revealed text={result.explanation} />
                    </p>
                  </>
                )}
              </td>
              <td className="rules-row__actions">
                {result && !result.pass && (
                  <Button
                    onClick={() => onExpect(index, result.got)}
                    disabled={disabled}
                    aria-label={`Expect ${result.got} in ${name}`}
                  >
                    Expect {result.got}
                  </Button>
                )}
                <Button
                  variant="danger"
                  onClick={() => onRemove(index)}
                  disabled={disabled}
                  aria-label={`Remove ${name}`}
                >
                  Remove
                </Button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
