import { AppError } from '../../shared/errors.js';
import { createRedactor, secretsOf, type Redactor } from './redact.js';
import type { GenerateRequest } from '../../shared/contract.js';
import type { Provider, ProviderConfig, ProviderContext, ProviderOutput, RemoteTask } from './types.js';

/**
 * The one boundary every provider answer crosses: whatever it yields (output, thrown errors, traces, progress
 * stages, test results) is redacted against the secrets of the config it was called with, whichever field or
 * nesting a provider echoed them in, before anything is stored, logged or sent.
 */
export function redactingProvider(provider: Provider, onSecrets?: (secrets: string[]) => void): Provider {
  const redactorFor = (config: ProviderConfig): Redactor => {
    const secrets = secretsOf(config);
    onSecrets?.(secrets);
    return createRedactor(secrets);
  };

  return {
    // What the provider knows without asking anyone (and any method added later) passes through as it is.
    ...provider,
    validate(request, config) {
      try {
        provider.validate(request, config);
      } catch (error) {
        throw redactError(error, redactorFor(config));
      }
    },
    async generate(request, config, context) {
      const r = redactorFor(config);
      return run(r, () => provider.generate(request, config, safeContext(context, r)));
    },
    ...(provider.resume === undefined
      ? {}
      : {
          async resume(remote: RemoteTask, request: GenerateRequest, config: ProviderConfig, context: ProviderContext) {
            const r = redactorFor(config);
            return run(r, () => provider.resume!(remote, request, config, safeContext(context, r)));
          },
        }),
    async test(config, signal) {
      const r = redactorFor(config);
      try {
        return r.deep(await provider.test(config, signal));
      } catch (error) {
        throw redactError(error, r);
      }
    },
  };
}

/** The context a provider sees: everything it reports, the remote handle included, passes the redactor first. */
function safeContext(context: ProviderContext, r: Redactor): ProviderContext {
  return {
    signal: context.signal,
    onAccepted: (remote) => context.onAccepted(remote === undefined ? undefined : r.deep(remote)),
    onPartialImage: (image) => context.onPartialImage(image),
    onProgress: (progress) => context.onProgress({ ...progress, stage: r.text(progress.stage) }),
    trace: (kind, message, data) =>
      context.trace(r.text(kind), r.text(message), data === undefined ? undefined : r.deep(data)),
    ...(context.inputs === undefined ? {} : { inputs: context.inputs }),
  };
}

/** Runs one provider call; image bytes are left alone (deep copies only plain objects and arrays), every string not. */
async function run(r: Redactor, call: () => Promise<ProviderOutput>): Promise<ProviderOutput> {
  let output: ProviderOutput;
  try {
    output = await call();
  } catch (error) {
    throw redactError(error, r);
  }
  return r.deep(output);
}

/** The same error with its message and details redacted; anything else thrown keeps only a redacted message. */
export function redactError(error: unknown, r: Redactor): unknown {
  if (error instanceof AppError) {
    return new AppError(error.code, r.text(error.message), {
      retryable: error.retryable,
      ...(error.details === undefined ? {} : { details: r.deep(error.details) }),
    });
  }
  if (error instanceof Error) {
    const copy = new Error(r.text(error.message));
    copy.name = error.name;
    return copy;
  }
  return typeof error === 'string' ? r.text(error) : error;
}
