// Claude Code as a second agent under the same policy: its tool calls mapped onto Gatehouse's
// tools, and its `settings.json` permission rules converted into Gatehouse rules.
export {
  mapClaudeCodeCall,
  MAX_PATH_LENGTH,
  type ClaudeCodeCallInput,
  type ClaudeCodeMapping,
  type MappedClaudeCodeCall,
} from './map-call';
export {
  ClaudeCodeSettingsSchema,
  convertRule,
  fromClaudeCodeSettings,
  type ClaudeCodeImportOptions,
} from './permissions';
