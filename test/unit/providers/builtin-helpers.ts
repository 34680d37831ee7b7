import type { GenerateRequest } from '../../../shared/contract.js';
import type {
  EncodedImage,
  ProviderConfig,
  ProviderContext,
  ProviderProgress,
} from '../../../electron/providers/types.js';

export const config: ProviderConfig = { timeoutMs: 60_000, maxResponseBytes: 1 << 30 };

export function request(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return {
    provider: 'builtin',
    prompt: 'a red sunset over mountains',
    width: 128,
    height: 96,
    count: 1,
    seed: 1234,
    partialImages: 0,
    ...overrides,
  };
}

export interface Recorded {
  context: ProviderContext;
  controller: AbortController;
  progress: ProviderProgress[];
  partials: EncodedImage[];
  accepted: number;
  /** Order of calls: 'accepted' | 'progress' | 'partial'. */
  calls: string[];
  traces: Array<{ kind: string; message: string }>;
}

export function recordingContext(): Recorded {
  const controller = new AbortController();
  const rec: Recorded = {
    controller,
    progress: [],
    partials: [],
    accepted: 0,
    calls: [],
    traces: [],
    context: {
      signal: controller.signal,
      onProgress: (p) => {
        rec.progress.push(p);
        rec.calls.push('progress');
      },
      onPartialImage: (image) => {
        rec.partials.push(image);
        rec.calls.push('partial');
      },
      onAccepted: () => {
        rec.accepted += 1;
        rec.calls.push('accepted');
      },
      trace: (kind, message) => rec.traces.push({ kind, message }),
    },
  };
  return rec;
}
