import type { InstanceHealth, JobSummary, ProviderInfo } from '../../../shared/contract';
import { kindOfTarget } from '../common/contract-constants';
import { KIND_LABEL } from '../../../shared/mapping/settings';
import { formatRelativeTime } from '../common/format';

/** The first instance of each kind has the kind as its id and stays; servers the person added can be removed. */
export function isAddedInstance(provider: Pick<ProviderInfo, 'id' | 'kind'>): boolean {
  return provider.id !== provider.kind;
}

/** "Up · seen 2 min ago", "Down since 16:02 · next try in 40 s", "Not checked yet". */
export function healthText(health: InstanceHealth, now: number): string {
  const since =
    health.since === undefined
      ? ''
      : ` · ${health.state === 'down' ? 'since' : 'seen'} ${formatRelativeTime(health.since, now)}`;
  if (health.state === 'up') return `Up${since}`;
  if (health.state === 'down') {
    const wait =
      health.nextProbeAt === undefined
        ? ''
        : health.nextProbeAt <= now
          ? ' · trying again now'
          : ` · next try in ${Math.ceil((health.nextProbeAt - now) / 1000)} s`;
    return `Down${since}${wait}`;
  }
  return 'Not checked yet';
}

/** What an instance runs now, by the jobs' prompts where the store has them. */
export function runningText(running: readonly string[], promptOf: (id: string) => string | undefined): string {
  if (running.length === 0) return 'Idle';
  const first = promptOf(running[0]!);
  const named = first === undefined ? 'a job' : `“${first.length > 40 ? `${first.slice(0, 39)}…` : first}”`;
  return running.length === 1 ? `Running ${named}` : `Running ${named} and ${running.length - 1} more`;
}

/** Which server runs a job: the instance the scheduler gave it, else the provider it asked for, by name. */
export function instanceLabel(
  job: Pick<JobSummary, 'instance' | 'provider'>,
  providers: readonly Pick<ProviderInfo, 'id' | 'name'>[],
): string {
  const id = job.instance ?? job.provider;
  const named = providers.find((p) => p.id === id)?.name;
  if (named !== undefined) return named;
  const kind = kindOfTarget(id);
  // Still waiting for a server of that kind: the scheduler picks one when the job starts.
  return kind === undefined
    ? id
    : `any ${KIND_LABEL[kind] === 'The built-in generator' ? 'built-in' : KIND_LABEL[kind]} server`;
}
