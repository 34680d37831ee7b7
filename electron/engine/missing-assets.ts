import { type GenerateRequest, kindOfTarget } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { findAsset } from '../../shared/mapping/asset-names.js';
import type { ModelCache } from './model-cache.js';

/** What the check reads: each instance's last listing, and which instances list their own files. */
export interface MissingAssetDeps {
  models: Pick<ModelCache, 'get'> | undefined;
  instances(): ReadonlyArray<{ id: string; kind: string }>;
  /** The server's listing is its own files (A1111, ComfyUI), not a hosted provider's presets. */
  listsFiles(id: string): boolean;
}

export interface MissingAsset {
  kind: 'model' | 'lora';
  name: string;
  field: string;
}

type Verdict = 'has' | 'lacks' | 'unknown';

/** One server's answer for one name: unknown when it has not listed that kind of file. */
function verdict(listed: readonly string[] | undefined, name: string): Verdict {
  if (listed === undefined) return 'unknown';
  return findAsset(name, listed) === undefined ? 'lacks' : 'has';
}

/**
 * Refuses, before anything is stored or sent, a request whose model or LoRAs the target's last listing lacks: for an
 * `any:<kind>` target, those every instance of the kind lacks. A server that never listed LoRAs (no `library`) or
 * models is not guessed at. Every missing name is said at once, in `details.missing`.
 */
export function checkMissingAssets(request: GenerateRequest, deps: MissingAssetDeps): void {
  if (deps.models === undefined) return;
  const kind = kindOfTarget(request.provider);
  const targets =
    kind === undefined
      ? [request.provider]
      : deps
          .instances()
          .filter((i) => i.kind === kind)
          .map((i) => i.id);
  const servers = targets.filter((id) => deps.listsFiles(id)).map((id) => deps.models!.get(id));
  if (servers.length === 0) return;
  // Missing only when at least one server knows and none has it or is unsure.
  const missingEverywhere = (verdicts: Verdict[]) => verdicts.length > 0 && verdicts.every((v) => v === 'lacks');
  const missing: MissingAsset[] = [];
  const model = request.upscale === undefined ? request.model : undefined;
  if (model !== undefined && model !== '') {
    const verdicts = servers.map((list) => {
      if (list === undefined || list.models.length === 0) return 'unknown';
      const checkpoints = (list.library ?? []).filter((m) => m.kind === 'checkpoint').map((m) => m.name);
      return verdict([...list.models, ...checkpoints], model);
    });
    if (missingEverywhere(verdicts)) missing.push({ kind: 'model', name: model, field: 'model' });
  }
  (request.loras ?? []).forEach((lora, index) => {
    const verdicts = servers.map((list) =>
      verdict(
        list?.library?.filter((m) => m.kind === 'lora').map((m) => m.name),
        lora.name,
      ),
    );
    if (missingEverywhere(verdicts)) missing.push({ kind: 'lora', name: lora.name, field: `loras.${index}.name` });
  });
  if (missing.length === 0) return;
  throw new AppError('invalid_request', missingMessage(missing), {
    details: {
      field: missing[0]!.field,
      missing,
      fields: Object.fromEntries(missing.map((m) => [m.field, `No connected server has “${m.name}”.`])),
    },
  });
}

const quoted = (names: string[]) => names.map((n) => `“${n}”`).join(', ');

/** `No connected server has the model “a” or the LoRAs “b”, “c”.` */
export function missingMessage(missing: readonly MissingAsset[]): string {
  const models = missing.filter((m) => m.kind === 'model').map((m) => m.name);
  const loras = missing.filter((m) => m.kind === 'lora').map((m) => m.name);
  const parts = [
    ...(models.length === 0 ? [] : [`the model ${quoted(models)}`]),
    ...(loras.length === 0 ? [] : [`the LoRA${loras.length === 1 ? '' : 's'} ${quoted(loras)}`]),
  ];
  return `No connected server has ${parts.join(' or ')}.`;
}

/**
 * The request with each LoRA named as its one target server lists it ("add_detail" from an A1111 image becomes
 * ComfyUI's "styles/add_detail.safetensors"), so the server finds it and the job records what ran. An `any:` target
 * is left alone: each instance may spell it differently.
 */
export function withListedLoraNames(request: GenerateRequest, deps: MissingAssetDeps): GenerateRequest {
  if (request.loras === undefined || request.loras.length === 0 || kindOfTarget(request.provider) !== undefined)
    return request;
  if (!deps.listsFiles(request.provider)) return request;
  const listed = deps.models
    ?.get(request.provider)
    ?.library?.filter((m) => m.kind === 'lora')
    .map((m) => m.name);
  if (listed === undefined) return request;
  let changed = false;
  const loras = request.loras.map((lora) => {
    const found = findAsset(lora.name, listed);
    if (found === undefined || found === lora.name) return lora;
    changed = true;
    return { ...lora, name: found };
  });
  return changed ? { ...request, loras } : request;
}
