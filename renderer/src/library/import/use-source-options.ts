import { useEffect } from 'react';
import type { ImageSource } from '../../../../shared/contract';
import { useApp } from '../../store/context';
import { sourceOptions, type SourceOption } from './sources';

/** The options, fetched when first shown and again whenever the library's totals change (a job, an import, a removal). */
export function useSourceOptions(chosen: ImageSource | null): SourceOption[] {
  const present = useApp((s) => s.sources);
  const stats = useApp((s) => s.stats);
  const load = useApp((s) => s.loadSources);
  useEffect(() => void load(), [load, stats]);
  return sourceOptions(present, chosen);
}
