import { AppError } from '../../shared/errors.js';

export interface CursorPosition {
  createdAt: number;
  id: string;
  /** The sort's own key where it is not the date: the rating, or the shuffle position. */
  k?: number;
}

const PREFIX = 'c1.';

/** Opaque to callers: the (created_at, id) of the last row on the page, so new jobs never shift later pages. */
export function encodeCursor(position: CursorPosition): string {
  const values =
    position.k === undefined ? [position.createdAt, position.id] : [position.createdAt, position.id, position.k];
  return PREFIX + Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
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
    (parsed.length !== 2 && parsed.length !== 3) ||
    !Number.isSafeInteger(parsed[0]) ||
    typeof parsed[1] !== 'string' ||
    parsed[1].length > 64 ||
    (parsed.length === 3 && !Number.isSafeInteger(parsed[2]))
  ) {
    throw invalid();
  }
  const position: CursorPosition = { createdAt: parsed[0] as number, id: parsed[1] };
  if (parsed.length === 3) position.k = parsed[2] as number;
  return position;
}
