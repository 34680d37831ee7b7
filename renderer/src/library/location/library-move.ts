import type { MoveStatus } from '../../../../shared/contract';
import { formatBytes, formatNumber } from '../../common/format';

/** "Copying 12 of 40 files · 3.1 MB of 9.8 MB", in the words of the move's phase. */
export function moveProgressText(move: MoveStatus): string {
  const verb =
    move.state === 'verifying'
      ? 'Verifying'
      : move.state === 'switching'
        ? 'Opening the library in its new place'
        : 'Copying';
  if (move.state === 'switching') return `${verb}…`;
  return `${verb} ${formatNumber(move.filesDone)} of ${formatNumber(move.filesTotal)} files · ${formatBytes(move.bytesDone)} of ${formatBytes(move.bytesTotal)}`;
}

export const moveRunning = (move: MoveStatus | null): boolean =>
  move !== null && (move.state === 'copying' || move.state === 'verifying' || move.state === 'switching');

export const moveFraction = (move: MoveStatus): number =>
  move.bytesTotal === 0 ? 0 : Math.min(1, move.bytesDone / move.bytesTotal);
