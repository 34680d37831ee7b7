import '../zod-jitless';
import { describeIssues, GenerateRequest, type ProviderCapabilities } from '../../../shared/contract';
import type { RequestWithoutKey } from './composer';

// This module is loaded on demand (it brings zod and the whole contract): the grid never waits for it.

/** Checks a request with the contract's own schema plus the provider's limits; field -> message. */
export function validateRequest(
  request: RequestWithoutKey,
  caps: ProviderCapabilities | undefined,
): Record<string, string> {
  const parsed = GenerateRequest.safeParse(request);
  const fields: Record<string, string> = parsed.success ? {} : describeIssues(parsed.error).fields;
  if (caps !== undefined) {
    const { min, max, multipleOf, fixed } = caps.sizes;
    if (fixed !== undefined && fixed.length > 0) {
      if (!fixed.some(([w, h]) => w === request.width && h === request.height) && fields.width === undefined) {
        fields.width = `This provider makes only ${fixed.map(([w, h]) => `${w}×${h}`).join(', ')}.`;
      }
    } else {
      for (const key of ['width', 'height'] as const) {
        const value = request[key];
        const label = key === 'width' ? 'Width' : 'Height';
        if (fields[key] !== undefined) continue;
        if (value < min || value > max) fields[key] = `${label} must be between ${min} and ${max} here.`;
        else if (value % multipleOf !== 0) fields[key] = `${label} must be a multiple of ${multipleOf} here.`;
      }
    }
    if (request.count > caps.maxCount && fields.count === undefined) {
      fields.count = `This provider makes at most ${caps.maxCount} at once.`;
    }
  }
  return fields;
}
