// Gemini CLI as another agent under the same policy: its tool calls mapped onto Gatehouse's tools.
export {
  mapGeminiCliCall,
  MAX_PATH_LENGTH,
  type GeminiCliCallInput,
  type GeminiCliMapping,
  type MappedGeminiCliCall,
} from './map-call';
