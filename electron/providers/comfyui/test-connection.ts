import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig, ProviderListing } from '../types.js';
import { type Connection, PROVIDER, connection } from './connection.js';
import { NO_PREVIEWS_HINT, previewsFromArgv } from './preview-hint.js';
import { comboOptions, fetchUpscalers } from './upscalers.js';
import { asKind, listLibraryExtras } from './library-listing.js';
import { promptError } from './validation-errors.js';

const TEST_TIMEOUT_MS = 15_000;

/** Upscale models each server listed last (by base URL), for capabilities() between connection tests. */
export type UpscalerMemo = Map<string, string[]>;

/** ckpt_name is `[[names...], {...}]` or the newer `["COMBO", {options:[...]}]` (docs/provider-protocols.md §3.5). */
export function checkpointNames(json: unknown): string[] {
  return comboOptions(json, 'CheckpointLoaderSimple', 'ckpt_name');
}

/** "Test connection": version, checkpoints, upscale models, the model library's lists, and a hint when the server sends no previews. */
export async function testConnection(
  config: ProviderConfig,
  signal: AbortSignal,
  memo: UpscalerMemo,
): Promise<ProviderListing> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let conn: Connection;
  try {
    conn = connection(config);
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: conn.secrets };
  try {
    const stats = await send(joinUrl(conn.base, 'system_stats'), { headers: conn.headers }, scope);
    if (stats.status !== 200) {
      const error = await promptError(stats, scope);
      return {
        ok: false,
        reachable: true,
        ...(error.code === 'provider_auth' ? { authenticated: false } : {}),
        models: [],
        latencyMs: elapsed(),
        message: error.message,
      };
    }
    const system = (await readJson(stats, config.maxResponseBytes, scope, 'the system stats')) as {
      system?: { comfyui_version?: unknown; argv?: unknown };
    };
    const info = await send(joinUrl(conn.base, 'object_info/CheckpointLoaderSimple'), { headers: conn.headers }, scope);
    const models =
      info.status === 200 ? checkpointNames(await readJson(info, config.maxResponseBytes, scope, 'the node info')) : [];
    if (info.status !== 200) await info.body?.cancel();
    const [upscalers, extras] = await Promise.all([
      fetchUpscalers(conn.base, conn.headers, scope, config.maxResponseBytes),
      listLibraryExtras(conn.base, conn.headers, scope, config.maxResponseBytes),
    ]);
    memo.set(conn.base, upscalers);
    const version = typeof system.system?.comfyui_version === 'string' ? ` ${system.system.comfyui_version}` : '';
    const upscaleNote =
      upscalers.length === 0 ? '' : `, ${upscalers.length} upscale model${upscalers.length === 1 ? '' : 's'}`;
    const hint = previewsFromArgv(system.system?.argv) === 'off' ? { hint: NO_PREVIEWS_HINT } : {};
    return {
      ok: true,
      reachable: true,
      authenticated: true,
      models,
      upscalers,
      library: [...asKind('checkpoint', models), ...extras],
      latencyMs: elapsed(),
      message:
        `Connected to ComfyUI${version}: ${models.length} ` +
        `checkpoint${models.length === 1 ? '' : 's'}${upscaleNote}.`,
      ...hint,
    };
  } catch (error) {
    if (signal.aborted) throw new AppError('cancelled', 'Cancelled.', { retryable: false });
    const appError = error instanceof AppError ? error : networkError(error, scope, 'while testing');
    return {
      ok: false,
      reachable: appError.code !== 'provider_unavailable' && appError.code !== 'timeout',
      models: [],
      latencyMs: elapsed(),
      message: appError.message,
    };
  } finally {
    deadline.dispose();
  }
}
