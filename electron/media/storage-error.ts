import { AppError } from '../../shared/errors.js';
import { errnoOf } from './media-fs.js';

const MESSAGES: Record<string, (dataDir: string) => string> = {
  ENOSPC: () => 'The disk is full, so the image could not be saved: free some space and retry. Your library is unchanged.',
  EDQUOT: () => 'Your disk quota is used up, so the image could not be saved: free some space and retry. Your library is unchanged.',
  EACCES: (dir) => `Atelier is not allowed to write to its library folder (${dir}): check the folder's permissions and retry.`,
  EPERM: (dir) => `Atelier is not allowed to write to its library folder (${dir}): check the folder's permissions and retry.`,
  EROFS: (dir) => `The library folder (${dir}) is on a read-only disk: choose a writable folder and retry.`,
  ENOENT: (dir) => `The library folder (${dir}) is missing: reconnect its drive or choose another folder, then retry.`,
};

export const STORAGE_ERRNOS: readonly string[] = Object.keys(MESSAGES);

/**
 * A file-system failure as AppError('storage') with a message a person understands and `details.errno`
 * (an unlisted errno still says what Atelier was doing).
 */
export function toStorageError(error: unknown, dataDir: string, action: string): AppError {
  if (error instanceof AppError) return error;
  const errno = errnoOf(error);
  const message = errno !== undefined && Object.hasOwn(MESSAGES, errno) ? MESSAGES[errno] : undefined;
  if (message !== undefined) {
    return new AppError('storage', message(dataDir), { retryable: false, details: { errno, action }, cause: error });
  }
  return new AppError('storage', `Atelier could not ${action}: ${errno ?? 'unknown error'}.`, {
    retryable: false,
    details: { errno: errno ?? 'unknown', action },
    cause: error,
  });
}
