import { AppError } from '../../shared/errors.js';

export interface CursorPosition {
  createdAt: number;
  id: string;
}

const PREFIX = 'c1.';

/** Opaque to callers: the (created_at, id) of the last row on the page, so new jobs never shift later pages. */
export function encodeCursor(position: CursorPosition): string {
  return PREFIX + Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  const invalid = () =>
    new AppError('invalid_request', 'That cursor is not one Atelier made. Start again from the first page.', {
      details: { fields: { cursor: 'not a cursor from jobs.list' } },
    });
  if (!cursor.startsWith(PREFIX)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    !Number.isSafeInteger(parsed[0]) ||
    typeof parsed[1] !== 'string' ||
    parsed[1].length > 64
  ) {
    throw invalid();
  }
  return { createdAt: parsed[0] as number, id: parsed[1] };
}
