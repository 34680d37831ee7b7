import { AppError } from '../../shared/errors.js';
import type { Handlers } from '../../shared/contract.js';

/** Presets, A1111 styles.csv and prompt history. */
export function createPresetHandlers(): Pick<Handlers, 'presets.list' | 'presets.save' | 'presets.delete' | 'presets.importStyles' | 'prompts.history'> {
  const later = async (): Promise<never> => {
    throw new AppError('internal', 'Presets are not available yet.');
  };
  return { 'presets.list': later, 'presets.save': later, 'presets.delete': later, 'presets.importStyles': later, 'prompts.history': later };
}
