// The environment variables the model layer reads, as data: resolve.ts parses them and the
// README documents them from this one table, so code and docs cannot drift apart.

export interface ModelEnvVariable {
  name: string;
  /** The model spec prefix that reads it. */
  usedBy: 'openai' | 'anthropic' | 'openai-compatible';
  /** Required whenever a spec with that prefix is used. */
  required: boolean;
  description: string;
}

export const MODEL_ENV_VARIABLES = [
  {
    name: 'OPENAI_API_KEY',
    usedBy: 'openai',
    required: true,
    description: 'API key for `openai:<model>` (sent as a Bearer token).',
  },
  {
    name: 'OPENAI_BASE_URL',
    usedBy: 'openai',
    required: false,
    description:
      'Base URL of the OpenAI API (default https://api.openai.com/v1), e.g. for a proxy. The endpoint must speak the Responses API; for other OpenAI-style servers use `openai-compatible:`.',
  },
  {
    name: 'ANTHROPIC_API_KEY',
    usedBy: 'anthropic',
    required: true,
    description: 'API key for `anthropic:<model>` (sent as `x-api-key`).',
  },
  {
    name: 'ANTHROPIC_BASE_URL',
    usedBy: 'anthropic',
    required: false,
    description:
      'Base URL of the Anthropic API including `/v1` (default https://api.anthropic.com/v1), e.g. for a proxy.',
  },
  {
    name: 'GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL',
    usedBy: 'openai-compatible',
    required: true,
    description:
      'Base URL of an OpenAI-compatible chat completions server for `openai-compatible:<model>`, e.g. http://127.0.0.1:11434/v1 for Ollama.',
  },
  {
    name: 'GATEHOUSE_OPENAI_COMPATIBLE_API_KEY',
    usedBy: 'openai-compatible',
    required: false,
    description: 'API key for the OpenAI-compatible server, if it needs one (sent as a Bearer token).',
  },
] as const satisfies readonly ModelEnvVariable[];

export type ModelEnvName = (typeof MODEL_ENV_VARIABLES)[number]['name'];
