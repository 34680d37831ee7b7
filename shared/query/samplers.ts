/**
 * One name per sampler, whatever the tool wrote: A1111's "Euler a", ComfyUI's euler_ancestral, old k-diffusion's
 * k_euler_ancestral and InvokeAI's "Euler Ancestral" are one sampler. Suggestions group by it, and sampler: matches
 * every spelling of the name typed. Input is a folded value (foldForSearch); work is linear in its length.
 */

/** The canonical key (ComfyUI's spelling) → the label people know (A1111's). */
const LABELS: Readonly<Record<string, string>> = {
  euler: 'Euler',
  euler_ancestral: 'Euler a',
  heun: 'Heun',
  lms: 'LMS',
  ddim: 'DDIM',
  ddpm: 'DDPM',
  plms: 'PLMS',
  lcm: 'LCM',
  deis: 'DEIS',
  uni_pc: 'UniPC',
  uni_pc_bh2: 'UniPC BH2',
  dpm_2: 'DPM2',
  dpm_2_ancestral: 'DPM2 a',
  dpm_fast: 'DPM fast',
  dpm_adaptive: 'DPM adaptive',
  dpmpp_2m: 'DPM++ 2M',
  dpmpp_2m_sde: 'DPM++ 2M SDE',
  dpmpp_3m_sde: 'DPM++ 3M SDE',
  dpmpp_sde: 'DPM++ SDE',
  dpmpp_2s_ancestral: 'DPM++ 2S a',
};

/** Schedulers A1111 wrote into the sampler's name ("DPM++ 2M Karras"). */
const SUFFIXES: Readonly<Record<string, string>> = { karras: 'Karras', exponential: 'Exponential' };

/** The canonical key of a folded sampler name: k_ dropped, words joined by _, dpm++ as dpmpp, a trailing a as ancestral. */
export function samplerKey(folded: string): string {
  let key = folded
    .trim()
    .replace(/[\s-]+/gu, '_')
    .replace(/^k_/u, '')
    .replaceAll('dpm++', 'dpmpp')
    .replace(/^dpm2/u, 'dpm_2')
    .replace(/^unipc/u, 'uni_pc');
  const suffix = key.match(/_(karras|exponential)$/u)?.[1];
  if (suffix !== undefined) key = key.slice(0, key.length - suffix.length - 1);
  if (key.endsWith('_a')) key = `${key.slice(0, -2)}_ancestral`;
  return suffix === undefined ? key : `${key}_${suffix}`;
}

/** The label to show for a stored sampler (its own text when the name is not one of the known samplers). */
export function samplerLabel(stored: string, folded: string): string {
  const key = samplerKey(folded);
  const suffix = key.match(/_(karras|exponential)$/u)?.[1];
  const base = suffix === undefined ? key : key.slice(0, key.length - suffix.length - 1);
  const label = LABELS[base];
  if (label === undefined) return stored;
  return suffix === undefined ? label : `${label} ${SUFFIXES[suffix]}`;
}
