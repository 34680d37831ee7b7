/**
 * Which look-alike list is open (Find similar on one image, or Show duplicates), kept apart from the app store so
 * the feature touches the shared slices not at all: any component may open it, SimilarView shows it.
 */
import { createStore, useStore } from 'zustand';

export type SimilarMode = { kind: 'similar'; imageId: string; jobId: string } | { kind: 'duplicates' } | null;

const similarView = createStore<{ mode: SimilarMode }>(() => ({ mode: null }));

export const openSimilar = (imageId: string, jobId: string): void =>
  similarView.setState({ mode: { kind: 'similar', imageId, jobId } });
export const openDuplicates = (): void => similarView.setState({ mode: { kind: 'duplicates' } });
export const closeSimilarView = (): void => similarView.setState({ mode: null });

export function useSimilarMode(): SimilarMode {
  return useStore(similarView, (s) => s.mode);
}

/** How a distance reads to a person (bits of 64 that differ); the bands follow the engine's calibrated thresholds. */
export function describeDistance(distance: number): string {
  if (distance === 0) return 'Same picture';
  if (distance <= 12) return 'Near copy';
  return 'Look-alike';
}

/** Duplicate groups once some images left them (trashed): each group without them, a group of one no longer shown. */
export function withoutImages<G extends { imageIds: string[] }>(groups: readonly G[], gone: ReadonlySet<string>): G[] {
  return groups.flatMap((group) => {
    const imageIds = group.imageIds.filter((id) => !gone.has(id));
    return imageIds.length < 2 ? [] : [{ ...group, imageIds }];
  });
}

/** "Keep this, trash the rest": every other image of the group, with the jobs that may hold them. */
export function theRest(group: { imageIds: readonly string[]; jobIds: readonly string[] }, keep: string) {
  return { imageIds: group.imageIds.filter((id) => id !== keep), jobIds: [...group.jobIds] };
}
