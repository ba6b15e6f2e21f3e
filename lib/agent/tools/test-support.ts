// Test fixtures for the tool tests (not used at run time): a real temp workspace with a sibling
// directory outside it, and a ToolContext whose policy answers are given by the test.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Decision, ToolCall } from '../../policy';
import type { ToolContext } from './types';

export interface TempWorkspace {
  /** Real path of the workspace. */
  workspace: string;
  /** Real path of a directory beside the workspace, for escape attempts. */
  outside: string;
  cleanup(): Promise<void>;
}

export async function tempWorkspace(): Promise<TempWorkspace> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-tools-')));
  const workspace = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  return { workspace, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export const allowByDefault: Decision = {
  action: 'allow',
  reason: 'risk_default',
  explanation: 'Allowed by the risk default.',
};

export function toolContext(
  workspace: string,
  options: { evaluate?: (call: ToolCall) => Decision; signal?: AbortSignal } & Pick<
    ToolContext,
    'approved' | 'trustedPolicy'
  > = {},
): ToolContext {
  return {
    workspace,
    toolCallId: 'call-1',
    signal: options.signal ?? new AbortController().signal,
    evaluate: options.evaluate ?? (() => allowByDefault),
    ...(options.approved === undefined ? {} : { approved: options.approved }),
    ...(options.trustedPolicy === undefined ? {} : { trustedPolicy: options.trustedPolicy }),
  };
}
