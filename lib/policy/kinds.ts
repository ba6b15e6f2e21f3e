// What the engine knows about the built-in tools: the kind of each parameter (which decides how
// a pattern over it is matched) and each tool's risk. A caller adds its own through the context.
import type { ParamKind, Risk } from './types';

export const BUILTIN_PARAM_KINDS: Readonly<Record<string, Readonly<Record<string, ParamKind>>>> = {
  bash: { command: 'command' },
  read_file: { path: 'path' },
  write_file: { path: 'path' },
  edit_file: { path: 'path' },
  list_files: { path: 'path' },
  fetch_url: { url: 'url' },
};

export const BUILTIN_RISKS: Readonly<Record<string, Risk>> = {
  bash: 'write',
  read_file: 'read_only',
  list_files: 'read_only',
  write_file: 'write',
  edit_file: 'write',
  fetch_url: 'read_only',
  task: 'read_only',
};

/** Tools whose writes `acceptEdits` mode lets through inside the workspace. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

export function paramKindOf(tool: string, param: string, overrides?: Record<string, ParamKind>): ParamKind {
  const override = overrides?.[param];
  if (override) return override;
  return BUILTIN_PARAM_KINDS[tool]?.[param] ?? 'text';
}

export function riskOf(tool: string, explicit?: Risk): Risk | undefined {
  return explicit ?? (Object.hasOwn(BUILTIN_RISKS, tool) ? BUILTIN_RISKS[tool] : undefined);
}
