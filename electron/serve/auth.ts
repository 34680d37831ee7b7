import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time: both sides are hashed to 32 bytes first, so neither length nor content leaks through timing. */
export function tokensEqual(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}

/** Cookies ignore ports, so two hosts on one machine need distinct cookie names. */
export function cookieName(port: number): string {
  return `atelier_token_${port}`;
}

export function sessionCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token a request carries: `Authorization: Bearer …` first, then the session cookie. */
export function requestToken(req: IncomingMessage, port: number): string | undefined {
  const auth = req.headers.authorization;
  if (auth !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return match?.[1];
  }
  return readCookie(req.headers.cookie, cookieName(port));
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopbackHost(host: string): boolean {
  return (
    host === '127.0.0.1' ||
    host === 'localhost' ||
    host === '::1' ||
    host === '[::1]' ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

/** Host header values this server answers to: loopback names (and an explicitly chosen address) on its own port. */
export function allowedHosts(port: number, bindHost: string): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  names.add(bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost);
  return new Set([...names].map((name) => `${name.toLowerCase()}:${port}`));
}

/** A page served from another name (DNS rebinding) has the wrong Host header; refuse it before anything else. */
export function hostAllowed(hostHeader: string | undefined, hosts: ReadonlySet<string>): boolean {
  return hostHeader !== undefined && hosts.has(hostHeader.toLowerCase());
}

/** Browsers send Origin on cross-origin requests and on same-origin POSTs: it must be the page's own origin. */
export function originAllowed(origin: string | undefined, hostHeader: string | undefined): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'http:' &&
    parsed.origin === origin &&
    hostHeader !== undefined &&
    parsed.host === new URL(`http://${hostHeader}`).host
  );
}
