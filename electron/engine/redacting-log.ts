import type { SecretBook } from '../providers/redact.js';
import type { Logger } from '../base/logger.js';

/** The engine's log, redacted against every provider secret this process has decrypted. */
export function redactingLog(log: Logger, secrets: SecretBook): Logger {
  const line =
    (write: Logger['info']): Logger['info'] =>
    (message, fields) => {
      const r = secrets.redactor();
      write(r.text(message), fields === undefined ? undefined : r.deep(fields));
    };
  return {
    info: line((m, f) => log.info(m, f)),
    warn: line((m, f) => log.warn(m, f)),
    error: line((m, f) => log.error(m, f)),
  };
}
