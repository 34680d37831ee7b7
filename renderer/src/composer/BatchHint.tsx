import { takesPrompt } from '../../../shared/prompt-template';
import type { BatchPlan } from './composer-batch';

/** Under the prompt: why the text cannot be read, what a recalled prompt makes, or what a style sends. */
export function BatchHint({
  plan,
  hint,
  promptError,
  template,
  recalledJobs = null,
}: {
  plan: BatchPlan;
  hint: string | null;
  promptError: string | undefined;
  template: string;
  /** A recalled prompt that typed would make this many jobs (composer-batch.ts recalledExpansion). */
  recalledJobs?: number | null;
}) {
  if (!plan.ok) {
    // Once submitted, the same message shows as the field's error instead.
    return promptError === undefined ? (
      <p className="hint batch-problem" role="status">
        {plan.message}
      </p>
    ) : null;
  }
  // The job count shows by Generate instead (BatchCount), where it stays in view.
  if (hint !== null) return null;
  if (recalledJobs !== null) {
    return (
      <p className="hint recalled-prompt" role="status">
        Makes 1 job: the recalled prompt is sent as written, its lines and {'{…|…}'} kept. Edit it to make{' '}
        {recalledJobs} jobs.
      </p>
    );
  }
  const first = plan.prompts[0];
  if (template === '' || first === undefined) return null;
  return (
    <p className="hint template-preview" title={first}>
      {takesPrompt(template) ? `Sends: ${first}` : `Sends the style’s fixed prompt, not what is typed: ${first}`}
    </p>
  );
}

/** Beside Generate, pinned with it: how many jobs it makes, opening to list their prompts. */
export function BatchCount({ plan, hint }: { plan: BatchPlan; hint: string | null }) {
  if (!plan.ok || hint === null) return null;
  return (
    <details className="batch-hint">
      <summary role="status">{hint}</summary>
      <ol>
        {plan.prompts.map((p, i) => (
          <li key={i}>{p}</li>
        ))}
      </ol>
    </details>
  );
}
