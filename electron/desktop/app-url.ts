/**
 * The renderer is served from a privileged custom scheme, never file://. These pure rules decide what counts as the
 * app itself (IPC senders, navigation) and which links may leave for the system browser.
 */
export const APP_SCHEME = 'atelier';
export const APP_HOST = 'app';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Same scheme and host as the app: compared on parsed parts, never by string prefix. */
export function isAppUrl(url: string): boolean {
  const parsed = parse(url);
  return (
    parsed !== null &&
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/** In-window navigation is allowed only within the app; everything else is blocked. */
export function isNavigationAllowed(url: string): boolean {
  return isAppUrl(url);
}

/** The https URL to open in the system browser, or null: other schemes (file:, javascript:, custom) never leave. */
export function externalLink(url: string): string | null {
  const parsed = parse(url);
  if (parsed === null || parsed.protocol !== 'https:' || parsed.hostname === '') return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}
