/** One call to a headless host's API (electron/serve/server.ts), as the page makes it: the value, or a thrown error. */
export async function hostApi<T>(host: { origin: string; token: string }, channel: string, input: unknown): Promise<T> {
  const response = await fetch(`${host.origin}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { ok: boolean; value?: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${channel}: ${body.error?.message}`);
  return body.value as T;
}
