/** Whether a provider's saved base URL points at a found engine's loopback port (localhost and ::1 count too). */
export function pointsAtPort(baseUrl: string | undefined, port: number): boolean {
  if (baseUrl === undefined) return false;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  const urlPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  // A path (a proxy prefix) means another server behind the port: not the one found at its root.
  return local && url.protocol === 'http:' && urlPort === port && (url.pathname === '/' || url.pathname === '');
}
