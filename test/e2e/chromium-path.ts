/** Debian's Chromium on the dev machine; CI runners have none there and point ATELIER_CHROMIUM at Playwright's build. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export function chromiumPath(env: Record<string, string | undefined> = process.env): string {
  const override = env['ATELIER_CHROMIUM']?.trim();
  return override !== undefined && override !== '' ? override : DEFAULT_CHROMIUM;
}
