// Codex CLI as another agent under the same policy: its tool calls mapped onto Gatehouse's tools.
export {
  mapCodexCall,
  MAX_PATH_LENGTH,
  type CodexCallInput,
  type CodexMappedCall,
  type CodexMapping,
  type MappedCodexCall,
} from './map-call';
