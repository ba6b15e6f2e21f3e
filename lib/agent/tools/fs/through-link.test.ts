// The file tools against the policy: the policy judges the path as
// written, the tool acts on its real path. A symlink inside the workspace (one a cloned repository
// brings along) to a file a deny rule names made read_file, write_file and edit_file act on that
// file under a rule that allowed only the link's name. Each row is one tool: the policy allows the
// call as written, so the tool itself must not act through the link without a person's approval.
import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compilePolicy, evaluate } from '../../../policy';
import { editFileTool } from './edit-file';
import { readFileTool } from './read-file';
import { writeFileTool } from './write-file';
import { tempWorkspace, toolContext, type TempWorkspace } from '../test-support';
import type { ToolDefinition } from '../types';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
  await writeFile(path.join(t.workspace, '.env'), 'SECRET=hunter2\n');
  await symlink('.env', path.join(t.workspace, 'notes.txt'));
});
afterEach(() => t.cleanup());

/** Everything in the workspace may be read, written and edited, except `.env` files. */
const policy = compilePolicy({
  defaultAction: 'ask',
  rules: [
    { action: 'deny', tool: 'read_file', params: { path: '**/.env' } },
    { action: 'deny', tool: 'write_file', params: { path: '**/.env' } },
    { action: 'deny', tool: 'edit_file', params: { path: '**/.env' } },
    { action: 'allow', tool: 'read_file', params: { path: '**' } },
    { action: 'allow', tool: 'write_file', params: { path: '**' } },
    { action: 'allow', tool: 'edit_file', params: { path: '**' } },
  ],
});

interface Row {
  name: string;
  tool: ToolDefinition<never>;
  input: Record<string, string>;
}

const rows: Row[] = [
  { name: 'read_file through a symlink to a denied file', tool: readFileTool as never, input: { path: 'notes.txt' } },
  {
    name: 'write_file through a symlink to a denied file',
    tool: writeFileTool as never,
    input: { path: 'notes.txt', content: 'SECRET=pwned\n' },
  },
  {
    name: 'edit_file through a symlink to a denied file',
    tool: editFileTool as never,
    input: { path: 'notes.txt', old: 'hunter2', new: 'pwned' },
  },
];

describe('a symlink in the workspace does not carry a call past a deny rule', () => {
  it.each(rows)('$name: the policy allows the name as written, the tool asks and refuses', async ({ tool, input }) => {
    const decision = evaluate(
      policy,
      { tool: tool.name, params: input },
      { workspaceRoot: t.workspace, homeDir: t.outside },
    );
    expect(decision.action).toBe('allow');
    // The gate turns a reason from `inspect` into an ask a person sees.
    expect(await tool.inspect?.(input as never, t)).toMatch(/symbolic link/);
    // Allowed outright (not approved), the tool itself refuses to act through the link.
    await expect(tool.execute(input as never, toolContext(t.workspace))).rejects.toThrow(/symbolic link/);
    expect(await readFile(path.join(t.workspace, '.env'), 'utf8')).toBe('SECRET=hunter2\n');
  });

  it('control: a person who approved the call (having seen why) gets the read', async () => {
    const result = await readFileTool.execute({ path: 'notes.txt' }, toolContext(t.workspace, { approved: true }));
    expect(result.output).toBe('SECRET=hunter2\n');
  });

  it('control: a plain file asks nothing and is read when allowed', async () => {
    await writeFile(path.join(t.workspace, 'plain.txt'), 'hello\n');
    expect(await readFileTool.inspect!({ path: 'plain.txt' }, t)).toBeUndefined();
    expect(await writeFileTool.inspect?.({ path: 'new/file.txt', content: 'x' }, t)).toBeUndefined();
    const result = await readFileTool.execute({ path: './plain.txt' }, toolContext(t.workspace));
    expect(result.output).toBe('hello\n');
  });
});
