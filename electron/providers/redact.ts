import type { ProviderConfig } from './types.js';

/** What replaces a secret wherever a provider echoed it. */
export const REDACTED = '***';

/** Shorter secrets are not replaced: a 1–3 character password would mangle every word it happens to occur in. */
export const MIN_SECRET_LENGTH = 4;

export interface Redactor {
  /** The text with every secret replaced. */
  text(value: string): string;
  /** A copy of plain objects and arrays with every string (keys too) redacted; bytes and other objects as they are. */
  deep<T>(value: T): T;
}

/**
 * Every form a call's secrets can take on the wire: the API key, the password, credentials written into the base
 * URL (decoded and as typed), and the base64 of `user:password` that a Basic header carries.
 */
export function secretsOf(config: Pick<ProviderConfig, 'apiKey' | 'password' | 'username' | 'baseUrl'>): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined): void => {
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH) found.add(value);
  };
  add(config.apiKey);
  add(config.password);
  let urlUser: string | undefined;
  let urlPassword: string | undefined;
  if (config.baseUrl !== undefined) {
    try {
      const url = new URL(config.baseUrl.trim());
      if (url.password !== '') {
        add(url.password);
        urlPassword = safeDecode(url.password);
        add(urlPassword);
      }
      if (url.username !== '') urlUser = safeDecode(url.username);
    } catch {
      // Not a URL: the provider refuses it before sending anything.
    }
  }
  const user = config.username ?? urlUser;
  const password = config.password ?? urlPassword;
  if (user !== undefined && user !== '') {
    add(Buffer.from(`${user}:${password ?? ''}`, 'utf8').toString('base64'));
    if (password !== undefined && password !== '') add(`${user}:${password}`);
  }
  return [...found];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A secret as it is and as it looks once echoed inside JSON text or a URL. */
export function secretForms(secret: string): string[] {
  const forms = [secret, JSON.stringify(secret).slice(1, -1)];
  try {
    forms.push(encodeURIComponent(secret));
  } catch {
    // A lone surrogate has no URL form.
  }
  return [...new Set(forms)];
}

export function createRedactor(secrets: Iterable<string>): Redactor {
  // Longest first, so a secret that contains another is removed whole.
  const list = [...new Set([...secrets].filter((s) => s.length >= MIN_SECRET_LENGTH).flatMap(secretForms))].sort(
    (a, b) => b.length - a.length,
  );

  const text = (value: string): string => {
    let out = value;
    // Each pass shortens the text, so this ends; a secret made of "*" could otherwise reappear around a replacement.
    for (let found = true; found;) {
      found = false;
      for (const secret of list) {
        if (out.includes(secret)) {
          out = out.split(secret).join(REDACTED);
          found = true;
        }
      }
    }
    return out;
  };

  const deep = <T>(value: T): T => walk(value, new WeakMap()) as T;

  const walk = (value: unknown, seen: WeakMap<object, unknown>): unknown => {
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value !== 'object') return value;
    const prior = seen.get(value);
    if (prior !== undefined) return prior;
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      for (const item of value) copy.push(walk(item, seen));
      return copy;
    }
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    const copy: Record<string, unknown> = {};
    seen.set(value, copy);
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a provider's "__proto__" key stays data and never becomes the copy's prototype.
      Object.defineProperty(copy, text(key), {
        value: walk(item, seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  };

  return list.length === 0 ? { text: (v) => v, deep: (v) => v } : { text, deep };
}

/** Every secret the process has decrypted for a provider call; the engine log is redacted against all of them. */
export interface SecretBook {
  add(secrets: readonly string[]): void;
  redactor(): Redactor;
}

export function createSecretBook(): SecretBook {
  const known = new Set<string>();
  let current = createRedactor([]);
  return {
    add(secrets) {
      const before = known.size;
      for (const secret of secrets) known.add(secret);
      if (known.size !== before) current = createRedactor(known);
    },
    redactor: () => current,
  };
}
