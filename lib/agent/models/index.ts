// The model layer's public face: the offline model, resolving a spec to a model, and the
// environment table the README documents.
export {
  createOfflineModel,
  chunkText,
  OFFLINE_MODEL_ID,
  OFFLINE_PROVIDER,
  type OfflineModelOptions,
} from './offline/offline';
export {
  parseInstructionLine,
  parseInstructions,
  unescapeText,
  type OfflineCall,
  type OfflineToolName,
} from './offline/offline-grammar';
export { OFFLINE_PHRASES, phraseCommand, type OfflinePhrase } from './offline/offline-phrases';
export { HELP_TEXT } from './offline/offline-reply';
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  DEFAULT_MODEL_SPEC,
  OPENAI_DEFAULT_BASE_URL,
  parseModelSpec,
  resolveModel,
  type Env,
  type ModelSpec,
  type ResolveModelOptions,
} from './resolve';
export { ModelConfigError, isModelConfigError } from './errors';
export { MODEL_ENV_VARIABLES, type ModelEnvName, type ModelEnvVariable } from './env';
