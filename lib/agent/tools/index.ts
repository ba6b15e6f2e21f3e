// The built-in tools and the workspace they act in. `builtinTools` uses the default limits; use
// the factories (createBashTool, createFetchUrlTool) for others.
import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { bashTool } from './bash';
import { editFileTool } from './fs/edit-file';
import { fetchUrlTool } from './http/fetch-url';
import { listFilesTool } from './fs/list-files';
import { readFileTool } from './fs/read-file';
import type { ToolDefinition, ToolEnvironment } from './types';
import { writeFileTool } from './fs/write-file';

export const builtinTools: readonly ToolDefinition<unknown>[] = [
  bashTool,
  readFileTool,
  listFilesTool,
  writeFileTool,
  editFileTool,
  fetchUrlTool,
];

/** Creates the workspace directory if needed (default `.data/workspace` under the cwd). */
export async function createWorkspace(dir: string = path.join('.data', 'workspace')): Promise<ToolEnvironment> {
  const absolute = path.resolve(dir);
  await mkdir(absolute, { recursive: true });
  // The tools compare real paths, so the workspace itself must be one.
  return { workspace: await realpath(absolute) };
}

export { createBashTool, bashTool, warmBash, type BashToolOptions } from './bash';
export { createFetchUrlTool, fetchUrlTool, type FetchUrlToolOptions } from './http/fetch-url';
export { readFileTool } from './fs/read-file';
export { listFilesTool } from './fs/list-files';
export { writeFileTool } from './fs/write-file';
export { editFileTool } from './fs/edit-file';
export { resolveWorkspacePath, type WorkspacePath } from './fs/workspace-path';
export * from './types';
