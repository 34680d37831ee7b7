/**
 * The one Content-Security-Policy for both hosts: scripts and styles only from the app itself, images also from the
 * media scheme (Electron) or same-origin /media (HTTP), no eval, no plugins, no framing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' atelier-media: data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
