/** Dragging images onto a board: the image ids travel in the drag's data under Atelier's own type. */
export const DRAG_TYPE = 'application/x-atelier-images';

interface TransferLike {
  setData(type: string, data: string): void;
  getData(type: string): string;
  readonly types: readonly string[];
  effectAllowed: string;
}

export function setDraggedImages(transfer: TransferLike, imageIds: readonly string[]): void {
  transfer.setData(DRAG_TYPE, JSON.stringify(imageIds));
  transfer.effectAllowed = 'copy';
}

export function carriesImages(transfer: Pick<TransferLike, 'types'>): boolean {
  return transfer.types.includes(DRAG_TYPE);
}

/** The ids a drop carries; anything else (text, files, a foreign page's drag) carries none. */
export function draggedImages(transfer: Pick<TransferLike, 'getData'>): string[] {
  try {
    const value: unknown = JSON.parse(transfer.getData(DRAG_TYPE) || '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(0, 10_000) : [];
  } catch {
    return [];
  }
}
