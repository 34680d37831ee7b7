/** Why a request certainly never left (so nothing was run or billed), read from a thrown fetch error. */

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|ERR_OSSL_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH)/;

/** undici's reasons for refusing a fetch before it opens any connection (the error has a message and no code). */
const REFUSED_BEFORE_CONNECT = new Set([
  'bad port',
  'unknown scheme',
  'URL scheme must be a HTTP(S) scheme',
  'invalid method',
  'local URLs only',
  'blocked',
]);

/** Node's codes for a header or URL it will not put on the wire (thrown while building the request). */
const UNSENDABLE_CODES = new Set([
  'ERR_INVALID_URL',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_UNESCAPED_CHARACTERS',
]);

/** fetch()'s TypeErrors while building a Request (bad header value, unparsable URL): thrown before any socket. */
const UNSENDABLE_MESSAGE =
  /invalid header value|ByteString|Failed to parse URL|Request cannot be constructed|Invalid URL|is an invalid header/i;

export interface NotSent {
  code: 'provider_unavailable' | 'invalid_request';
  retryable: boolean;
  errno?: string;
  message(provider: string): string;
}

/** Why the request certainly never left, found anywhere on the error's cause chain; undefined when it may have. */
export function notSentCause(error: unknown): NotSent | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const found = classifyLink(current as { code?: unknown; syscall?: unknown; message?: unknown; name?: unknown });
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function classifyLink(link: {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
  name?: unknown;
}): NotSent | undefined {
  const code = typeof link.code === 'string' ? link.code : undefined;
  const message = typeof link.message === 'string' ? link.message : '';
  const syscall = typeof link.syscall === 'string' ? link.syscall : undefined;
  if (code !== undefined && (CONNECT_CODES.has(code) || syscall === 'connect' || syscall === 'getaddrinfo')) {
    return {
      code: 'provider_unavailable',
      retryable: true,
      errno: code,
      message: (p) => `Could not reach ${p} (${describeCode(code)}). Is it running and is the address right?`,
    };
  }
  if (code !== undefined && TLS_CODE.test(code)) {
    return {
      code: 'provider_unavailable',
      retryable: false,
      errno: code,
      message: (p) => `Could not open a secure connection to ${p}: its certificate was not accepted (${code}).`,
    };
  }
  // Node's words when the server hangs up during the TLS handshake, before a request byte could be written.
  if (code === 'ECONNRESET' && /before secure TLS connection was established/.test(message)) {
    return {
      code: 'provider_unavailable',
      retryable: true,
      errno: code,
      message: (p) =>
        `Could not open a secure connection to ${p}: it closed the connection during the TLS handshake. Is it ` +
        `serving https on that port?`,
    };
  }
  if (code === undefined && REFUSED_BEFORE_CONNECT.has(message)) {
    if (message === 'bad port') {
      return {
        code: 'provider_unavailable',
        retryable: false,
        message: (p) =>
          `Could not reach ${p}: its port is one that Node refuses to connect to for safety (a "bad port", such as ` +
          `9, 25 or 6000). Use another port.`,
      };
    }
    return {
      code: 'provider_unavailable',
      retryable: false,
      message: (p) => `Could not reach ${p}: the request was refused before connecting (${message}).`,
    };
  }
  if (
    (code !== undefined && UNSENDABLE_CODES.has(code)) ||
    (code === undefined && link.name === 'TypeError' && UNSENDABLE_MESSAGE.test(message))
  ) {
    // The raw message can quote the header value (a key), so it is never repeated.
    const header = /header|ByteString|ERR_INVALID_CHAR|HTTP_TOKEN/i.test(`${code ?? ''} ${message}`);
    return {
      code: 'invalid_request',
      retryable: false,
      ...(code === undefined ? {} : { errno: code }),
      message: (p) =>
        header
          ? `Atelier could not send the request to ${p}: a header value (the API key, user name or password) has ` +
            `characters HTTP does not allow, such as a line break or a non-Latin letter. Check them in Settings.`
          : `Atelier could not send the request to ${p}: its address is not a valid URL.`,
    };
  }
  return undefined;
}

function describeCode(code: string): string {
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'host name not found';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'connection timed out';
  if (code === 'ECONNRESET') return 'connection reset while connecting';
  return code;
}
