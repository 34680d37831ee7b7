import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, malformedError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { ProviderConfig } from '../types.js';
import type { Connection } from './connection.js';
import { promptError } from './validation-errors.js';
import type { ApiGraph } from './workflow.js';

/** POST /prompt with our own prompt id; answers the server's node_errors (a 200 can still carry some). */
export async function queuePrompt(
  conn: Connection,
  ids: { clientId: string; promptId: string },
  graph: ApiGraph,
  config: ProviderConfig,
  scope: CallScope,
): Promise<{ nodeErrors: unknown }> {
  const { clientId, promptId } = ids;
  const response = await send(
    joinUrl(conn.base, 'prompt'),
    { method: 'POST', headers: conn.headers, json: { prompt: graph, client_id: clientId, prompt_id: promptId } },
    scope,
    'while queueing the prompt',
  );
  if (response.status !== 200) throw await promptError(response, scope);
  const queued = parseJsonSync(
    await readBounded(response, Math.min(config.maxResponseBytes, 1024 * 1024), scope),
    scope,
    'the /prompt response',
  ) as { prompt_id?: unknown; node_errors?: unknown };
  if (typeof queued.prompt_id === 'string' && queued.prompt_id !== promptId)
    throw malformedError(scope, `a different prompt id than the one sent (${queued.prompt_id})`);
  return { nodeErrors: queued.node_errors };
}
