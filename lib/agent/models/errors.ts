// The one error the model layer throws: a model spec or its environment is unusable. Raised at
// resolve time (before any run starts) and names the offending variable, never its value.

export class ModelConfigError extends Error {
  readonly code = 'invalid_model_config';

  constructor(
    message: string,
    /** The environment variable at fault, when one is. */
    readonly variable?: string,
  ) {
    super(message);
    this.name = 'ModelConfigError';
  }
}

export function isModelConfigError(error: unknown): error is ModelConfigError {
  return error instanceof ModelConfigError;
}
