import type { IncomingHttpHeaders } from 'node:http';

/**
 * A careless provider echoes the credentials it was sent. This is what such a server would repeat: the whole
 * Authorization header, its token, and for Basic the decoded `user:password` and the password alone.
 */
export function credentialEcho(headers: IncomingHttpHeaders): string {
  const authorization = headers.authorization;
  if (authorization === undefined || authorization === '') return '';
  const parts = [authorization];
  const space = authorization.indexOf(' ');
  const token = space < 0 ? '' : authorization.slice(space + 1).trim();
  if (token !== '') parts.push(token);
  if (/^basic$/i.test(authorization.slice(0, space))) {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    parts.push(decoded, decoded.slice(decoded.indexOf(':') + 1));
  }
  return parts.join(' | ');
}

/** The same echo nested the ways real bodies nest things: in values, keys and arrays. */
export function nestedEcho(echo: string): Record<string, unknown> {
  return { echoed: echo, [`key ${echo}`]: [echo, { deeper: { value: echo, [echo]: echo } }] };
}

/** A copy of a JSON body with the echo after every string (keys kept) and once more nested under `echo`. */
export function echoEverywhere(value: unknown, echo: string): unknown {
  if (echo === '') return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return `${v} ${echo}`;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(value);
  return out !== null && typeof out === 'object' && !Array.isArray(out) ? { ...out, echo: nestedEcho(echo) } : out;
}
