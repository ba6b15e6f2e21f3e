// Turns a model spec (`offline`, `openai:<model>`, `anthropic:<model>`,
// `openai-compatible:<model>`) and the environment into a LanguageModelV4. Fails early with a
// ModelConfigError naming the missing or bad variable; constructing a provider makes no request.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { z } from 'zod';
import type { ModelEnvName } from './env';
import { ModelConfigError } from './errors';
import { createOfflineModel, type OfflineModelOptions } from './offline/offline';

export type Env = Record<string, string | undefined>;

export interface ResolveModelOptions {
  /** Options for the offline model (e.g. a streaming delay for the UI). */
  offline?: OfflineModelOptions;
  /** Custom fetch for the real providers (proxies, tests); default global fetch. */
  fetch?: typeof globalThis.fetch;
}

export const DEFAULT_MODEL_SPEC = 'offline';
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com/v1';

const PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;
const SPEC_HELP = 'expected "offline", "openai:<model>", "anthropic:<model>" or "openai-compatible:<model>"';

const specSchema = z.object({
  provider: z.enum(PROVIDERS),
  modelId: z.string().min(1),
});
export type ModelSpec = { provider: 'offline' } | z.infer<typeof specSchema>;

/** Parses a spec; the model id is everything after the first colon (`llama3.1:8b` stays whole). */
export function parseModelSpec(spec: string | undefined): ModelSpec {
  const text = (spec ?? '').trim();
  if (text === '' || text === 'offline') return { provider: 'offline' };
  const colon = text.indexOf(':');
  const raw =
    colon < 0
      ? { provider: text, modelId: '' }
      : { provider: text.slice(0, colon), modelId: text.slice(colon + 1).trim() };
  const parsed = specSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  if (!(PROVIDERS as readonly string[]).includes(raw.provider)) {
    throw new ModelConfigError(`Unknown model "${text}": ${SPEC_HELP}.`);
  }
  throw new ModelConfigError(`Model "${text}" names no model: write it as "${raw.provider}:<model>".`);
}

// An empty (or blank) variable counts as unset, as it does in most .env tooling.
const cleaned = (value: unknown) => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};
const secret = z.preprocess(cleaned, z.string());
const httpUrl = z.preprocess(cleaned, z.url({ protocol: /^https?$/ }));

const envSchemas = {
  openai: z.object({ OPENAI_API_KEY: secret, OPENAI_BASE_URL: httpUrl.optional() }),
  anthropic: z.object({ ANTHROPIC_API_KEY: secret, ANTHROPIC_BASE_URL: httpUrl.optional() }),
  'openai-compatible': z.object({
    GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL: httpUrl,
    GATEHOUSE_OPENAI_COMPATIBLE_API_KEY: secret.optional(),
  }),
} satisfies Record<(typeof PROVIDERS)[number], z.ZodObject<Partial<Record<ModelEnvName, z.ZodType>>>>;

function readEnv<S extends z.ZodObject>(schema: S, env: Env, spec: string): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const name = String(result.error.issues[0]?.path[0] ?? '');
  const missing = cleaned(env[name]) === undefined;
  throw new ModelConfigError(
    missing
      ? `${name} is required for model "${spec}" but is not set.`
      : `${name} is invalid for model "${spec}": it must be an http(s) URL.`,
    name,
  );
}

/** Resolves a spec to a model; `undefined` or empty means the offline model. */
export function resolveModel(
  spec: string | undefined,
  env: Env = process.env,
  options: ResolveModelOptions = {},
): LanguageModelV4 {
  const parsed = parseModelSpec(spec);
  if (parsed.provider === 'offline') return createOfflineModel(options.offline);

  const label = `${parsed.provider}:${parsed.modelId}`;
  const { fetch } = options;
  switch (parsed.provider) {
    case 'openai': {
      const vars = readEnv(envSchemas.openai, env, label);
      const provider = createOpenAI({
        apiKey: vars.OPENAI_API_KEY,
        baseURL: vars.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL,
        fetch,
      });
      return asV4(provider(parsed.modelId));
    }
    case 'anthropic': {
      const vars = readEnv(envSchemas.anthropic, env, label);
      const provider = createAnthropic({
        apiKey: vars.ANTHROPIC_API_KEY,
        baseURL: vars.ANTHROPIC_BASE_URL ?? ANTHROPIC_DEFAULT_BASE_URL,
        fetch,
      });
      return asV4(provider(parsed.modelId));
    }
    case 'openai-compatible': {
      const vars = readEnv(envSchemas['openai-compatible'], env, label);
      const provider = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: vars.GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL,
        apiKey: vars.GATEHOUSE_OPENAI_COMPATIBLE_API_KEY,
        includeUsage: true,
        fetch,
      });
      return asV4(provider.chatModel(parsed.modelId));
    }
  }
}

/**
 * The installed provider packages implement the V3 spec; the `ai` package adapts V3 to V4 (this
 * is what streamText does internally too). wrapLanguageModel with no middleware is that adapter.
 */
function asV4(model: Parameters<typeof wrapLanguageModel>[0]['model']): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: [] });
}
