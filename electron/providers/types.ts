import type {
  GenerateRequest,
  JobResult,
  ProviderCapabilities,
  ProviderTestResult,
  ServerModel,
} from '../../shared/contract.js';
import type { Seed } from '../../shared/seed.js';

/** What a provider needs from settings and the keyring for one call. Secrets are decrypted only here. */
export interface ProviderConfig {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  username?: string;
  password?: string;
  timeoutMs: number;
  /** ComfyUI: a user-supplied API-format workflow. */
  workflow?: string;
  /**
   * The server's upscalers as last listed (A1111's /sdapi/v1/upscalers, ComfyUI's upscale models), kept with its models
   * by the engine.
   */
  upscalers?: string[];
  /** Hard bound on any one response body or stream, in bytes. */
  maxResponseBytes: number;
}

/** A connection test's answer, with the server's lists that are kept alongside its models. */
export type ProviderListing = ProviderTestResult & {
  upscalers?: string[];
  /** Checkpoints, LoRAs, embeddings and VAEs with what the server says of each (the model library's source). */
  library?: ServerModel[];
};

export interface ProviderProgress {
  stage: string;
  fraction?: number;
  step?: number;
  steps?: number;
  etaMs?: number;
}

export interface EncodedImage {
  data: Uint8Array;
  mime: string;
  width?: number;
  height?: number;
}

/** An image of the library read for a job (its original's bytes, untouched), with its real size. */
export interface SourceImage extends EncodedImage {
  width: number;
  height: number;
}

/**
 * What a job works from, read by the worker before the provider is called: the request's inputImage (or upscale's
 * image) and its mask. The mask is an 8-bit grayscale PNG the source's size: white (255) repaints, black keeps.
 */
export interface WorkInputs {
  image?: SourceImage;
  mask?: SourceImage;
  /** The request's referenceImages, read in its order. */
  references?: SourceImage[];
}

export interface GeneratedImage extends EncodedImage {
  /** The seed this image was rendered with; left out when the provider does not say (OpenAI). */
  seed?: Seed;
  /** Position in a batch drawn from one shared seed (ComfyUI's batch_size), where that is how it was made. */
  batchIndex?: number;
}

export interface ProviderOutput {
  images: GeneratedImage[];
  revisedPrompt?: string;
  seed?: Seed;
  usage?: JobResult['usage'];
  /** What the provider said this job cost, in US dollars, where its API reports it (else the spend table estimates). */
  costUsd?: number;
  /** Provider-specific extras worth keeping in the result (e.g. A1111 infotexts). */
  info?: Record<string, unknown>;
}

/** The abort reason the worker gives when Atelier quits: accepted work is left to run and collected after restart. */
export const SHUTDOWN_REASON = 'shutdown';

/** Whether `signal` aborted because Atelier is quitting (directly, or through a Deadline wrapping such a signal). */
export function isShutdown(signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return reason === SHUTDOWN_REASON || (typeof reason === 'object' && reason !== null && 'shutdown' in reason);
}

/**
 * Accepted work as the provider knows it, enough for a later run (after a crash, a quit, a lost connection) to find
 * it again. Plain strings only; never a key (the redacting boundary scrubs it anyway).
 */
export interface RemoteTask {
  /** The provider's own id for the work: BFL's task id, fal's request id, Replicate's prediction id, RunPod's job id. */
  id: string;
  /** What else finding it needs: a polling URL, the model path a status URL is built from. */
  data?: Record<string, string>;
}

export interface ProviderContext {
  /** Aborted on cancel or timeout; the provider stops through its own cancel mechanism. */
  signal: AbortSignal;
  onProgress(progress: ProviderProgress): void;
  onPartialImage(image: EncodedImage): void;
  /**
   * Called once the provider has accepted the work (request fully sent and acknowledged).
   * After this, nothing is retried automatically: the provider may bill it. A provider whose API answers with an id
   * passes it as `remote`: it is stored with the job before this returns, so a later run collects the work through
   * `Provider.resume` instead of sending it again.
   */
  onAccepted(remote?: RemoteTask): void;
  /** Appends to the job's trace (job_events). */
  trace(kind: string, message: string, data?: Record<string, unknown>): void;
  /** Set whenever the request has inputImage, mask or upscale (the request says which operation). */
  inputs?: WorkInputs;
}

/**
 * One image provider. Errors are thrown as AppError with contract codes; `retryable: true` only when the
 * request certainly did not reach the provider's billing (connection refused, 429/503 before acceptance),
 * with `details.retryAfterMs` when the provider said how long to wait.
 */
export interface Provider {
  readonly id: string;
  readonly name: string;
  capabilities(config: ProviderConfig): ProviderCapabilities;
  /** Models known without a network call (the picker shows these offline). */
  knownModels(config: ProviderConfig): string[];
  /** Its test() fetches the server's model list (A1111's checkpoints, ComfyUI's), which the engine keeps. */
  readonly listsModels?: boolean;
  /** True when a request without a model cannot run (ComfyUI's {{model}}): the engine then picks the first listed. */
  requiresModel?(config: ProviderConfig): boolean;
  /** True when everything it needs (base URL, key) is present. */
  isConfigured(config: ProviderConfig): boolean;
  /** Throws AppError('invalid_request') before any network call. */
  validate(request: GenerateRequest, config: ProviderConfig): void;
  generate(request: GenerateRequest, config: ProviderConfig, context: ProviderContext): Promise<ProviderOutput>;
  test(config: ProviderConfig, signal: AbortSignal): Promise<ProviderListing>;
  /**
   * Collects work accepted by an earlier run (its `onAccepted(remote)`) without submitting anything: polls until it
   * is done, then downloads it, reporting progress like generate. Work the provider no longer knows, or a result
   * that expired, ends in AppError('provider_error') with `details.remoteGone: true` and the reason in words.
   */
  resume?(
    remote: RemoteTask,
    request: GenerateRequest,
    config: ProviderConfig,
    context: ProviderContext,
  ): Promise<ProviderOutput>;
}
