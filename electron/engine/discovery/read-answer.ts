/** One bounded, timed GET or POST to this computer, for the probe: never throws, never reads past its bound. */
export type ProbeAnswer =
  | { kind: 'answer'; status: number; text: string }
  /** Something answered, but with more than the bound allows: not an engine's short identifying answer. */
  | { kind: 'too-large' }
  /** Nothing answered in time, or nothing listens. */
  | { kind: 'silent' };

export interface ProbeRequest {
  method: 'GET' | 'POST';
  body?: string;
  timeoutMs: number;
  maxBytes: number;
}

export async function readAnswer(url: string, request: ProbeRequest): Promise<ProbeAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  try {
    const response = await fetch(url, {
      method: request.method,
      signal: controller.signal,
      redirect: 'manual',
      headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    if (response.body === null) return { kind: 'answer', status: response.status, text: '' };
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        total += chunk.value.byteLength;
        if (total > request.maxBytes) return { kind: 'too-large' };
        chunks.push(chunk.value);
      }
    } finally {
      // Stops an oversized or abandoned body at once instead of draining it.
      await reader.cancel().catch(() => undefined);
    }
    return { kind: 'answer', status: response.status, text: Buffer.concat(chunks).toString('utf8') };
  } catch {
    return { kind: 'silent' };
  } finally {
    clearTimeout(timer);
  }
}
