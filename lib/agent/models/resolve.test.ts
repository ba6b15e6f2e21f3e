// resolveModel: spec parsing, provider construction from an explicit env (no network: a stub
// fetch records the request a call would make), and early, named errors.
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { MODEL_ENV_VARIABLES } from './env';
import { ModelConfigError } from './errors';
import { parseModelSpec, resolveModel } from './resolve';

interface Captured {
  url: string;
  headers: Headers;
}

/** A fetch that records the request and answers 401, so a call fails fast without a network. */
function stubFetch(captured: Captured[]): typeof globalThis.fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    captured.push({ url, headers: new Headers(init?.headers) });
    return new Response(JSON.stringify({ error: { message: 'stub', type: 'invalid_request_error' } }), {
      status: 401,
      headers: { 'content-type': 'application/json' },
    });
  };
}

async function firstRequest(spec: string, env: Record<string, string>): Promise<Captured> {
  const captured: Captured[] = [];
  const model = resolveModel(spec, env, { fetch: stubFetch(captured) });
  await expect(generateText({ model, prompt: 'hi', maxRetries: 0 })).rejects.toThrow();
  const request = captured[0];
  if (!request) throw new Error('no request was made');
  return request;
}

function configError(run: () => unknown): ModelConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ModelConfigError) return error;
    throw error;
  }
  throw new Error('expected a ModelConfigError');
}

describe('resolveModel: offline', () => {
  it.each([undefined, '', '   ', 'offline', ' offline '])('%j resolves to the offline model', (spec) => {
    const model = resolveModel(spec, {});
    expect([model.specificationVersion, model.provider, model.modelId]).toEqual(['v4', 'gatehouse', 'offline']);
  });
});

describe('resolveModel: providers construct from the env alone', () => {
  it('openai:<model> uses OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const model = resolveModel('openai:gpt-4o-mini', env);
    expect([model.specificationVersion, model.provider, model.modelId]).toEqual([
      'v4',
      'openai.responses',
      'gpt-4o-mini',
    ]);
    const request = await firstRequest('openai:gpt-4o-mini', env);
    expect(request.url).toBe('http://127.0.0.1:9/v1/responses');
    expect(request.headers.get('authorization')).toBe('Bearer sk-test');
  });

  it('openai defaults to the public API when OPENAI_BASE_URL is unset', async () => {
    const request = await firstRequest('openai:gpt-4o-mini', { OPENAI_API_KEY: 'sk-test' });
    expect(request.url).toBe('https://api.openai.com/v1/responses');
  });

  it('anthropic:<model> uses ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL', async () => {
    const env = { ANTHROPIC_API_KEY: 'ak-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1' };
    const model = resolveModel('anthropic:claude-sonnet-4-5', env);
    expect([model.specificationVersion, model.provider, model.modelId]).toEqual([
      'v4',
      'anthropic.messages',
      'claude-sonnet-4-5',
    ]);
    const request = await firstRequest('anthropic:claude-sonnet-4-5', env);
    expect(request.url).toBe('http://127.0.0.1:9/v1/messages');
    expect(request.headers.get('x-api-key')).toBe('ak-test');
  });

  it('openai-compatible:<model> uses the Gatehouse base URL and optional key, keeping colons in the model id', async () => {
    const env = {
      GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
      GATEHOUSE_OPENAI_COMPATIBLE_API_KEY: 'ollama',
    };
    const model = resolveModel('openai-compatible:llama3.1:8b', env);
    expect([model.specificationVersion, model.provider, model.modelId]).toEqual([
      'v4',
      'openai-compatible.chat',
      'llama3.1:8b',
    ]);
    const request = await firstRequest('openai-compatible:llama3.1:8b', env);
    expect(request.url).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(request.headers.get('authorization')).toBe('Bearer ollama');
  });

  it('openai-compatible works without an API key', async () => {
    const request = await firstRequest('openai-compatible:qwen3', {
      GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
    });
    expect(request.headers.get('authorization')).toBeNull();
  });
});

describe('resolveModel: errors', () => {
  it.each([
    ['gpt-4o', /Unknown model "gpt-4o"/],
    ['mistral:large', /Unknown model "mistral:large"/],
    ['offline:x', /Unknown model "offline:x"/],
    ['openai', /"openai" names no model/],
    ['anthropic:', /"anthropic:" names no model/],
  ])('rejects the spec %j', (spec, message) => {
    const error = configError(() => resolveModel(spec, { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' }));
    expect(error.message).toMatch(message);
    expect(error.code).toBe('invalid_model_config');
  });

  it.each([
    ['openai:gpt-4o', {}, 'OPENAI_API_KEY'],
    ['openai:gpt-4o', { OPENAI_API_KEY: '  ' }, 'OPENAI_API_KEY'],
    ['anthropic:claude-sonnet-4-5', { OPENAI_API_KEY: 'k' }, 'ANTHROPIC_API_KEY'],
    ['openai-compatible:llama3', { GATEHOUSE_OPENAI_COMPATIBLE_API_KEY: 'k' }, 'GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL'],
  ])('%s with env %j fails early naming %s', (spec, env, variable) => {
    const error = configError(() => resolveModel(spec, env));
    expect(error.variable).toBe(variable);
    expect(error.message).toBe(`${variable} is required for model "${spec}" but is not set.`);
  });

  it.each([
    ['openai:gpt-4o', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'not a url' }, 'OPENAI_BASE_URL'],
    ['anthropic:claude', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'ftp://x/v1' }, 'ANTHROPIC_BASE_URL'],
    [
      'openai-compatible:m',
      { GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL: 'localhost:11434' },
      'GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL',
    ],
  ])('%s rejects a bad base URL in %s without echoing it', (spec, env, variable) => {
    const error = configError(() => resolveModel(spec, env));
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(/must be an http\(s\) URL/);
    expect(error.message).not.toContain(env[variable as keyof typeof env]);
  });

  it('never puts a key in a message', () => {
    const error = configError(() =>
      resolveModel('openai:gpt-4o', { OPENAI_API_KEY: 'sk-secret', OPENAI_BASE_URL: 'nope' }),
    );
    expect(error.message).not.toContain('sk-secret');
  });
});

describe('parseModelSpec', () => {
  it('splits at the first colon and trims', () => {
    expect(parseModelSpec(' openai-compatible: qwen2.5-coder:7b ')).toEqual({
      provider: 'openai-compatible',
      modelId: 'qwen2.5-coder:7b',
    });
  });
});

describe('MODEL_ENV_VARIABLES', () => {
  it('lists every variable resolveModel reads, with a description', () => {
    expect(MODEL_ENV_VARIABLES.map((v) => [v.name, v.usedBy, v.required])).toEqual([
      ['OPENAI_API_KEY', 'openai', true],
      ['OPENAI_BASE_URL', 'openai', false],
      ['ANTHROPIC_API_KEY', 'anthropic', true],
      ['ANTHROPIC_BASE_URL', 'anthropic', false],
      ['GATEHOUSE_OPENAI_COMPATIBLE_BASE_URL', 'openai-compatible', true],
      ['GATEHOUSE_OPENAI_COMPATIBLE_API_KEY', 'openai-compatible', false],
    ]);
    expect(MODEL_ENV_VARIABLES.every((v) => v.description.length > 20)).toBe(true);
  });
});
