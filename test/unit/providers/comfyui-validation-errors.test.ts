import { afterAll, describe, expect, it } from 'vitest';
import {
  acceptedWithErrors,
  describeRejection,
  joinClauses,
  promptError,
} from '../../../electron/providers/comfyui/validation-errors.js';
import { Deadline } from '../../../electron/providers/http/deadline.js';
import type { CallScope } from '../../../electron/providers/http/errors.js';
import { transcript } from '../../fakes/comfyui-nodes.js';

/** Every /prompt refusal recorded from a real ComfyUI 0.3.64 (test/fixtures/comfyui-real-transcript.json). */
const refusals = transcript().facts.refusals as Record<string, { status: number; json?: unknown; text?: string }>;

const deadline = new Deadline(new AbortController().signal, 60_000);
const scope = (): CallScope => ({ provider: 'ComfyUI', deadline, secrets: ['sekret-proxy-key'] });
afterAll(() => deadline.dispose());

/** What a person reads for each refusal: the server's message and its details, both, in one clean sentence. */
const EXPECTED: Record<string, string> = {
  bad_checkpoint:
    "Prompt outputs failed validation — node 4 (CheckpointLoaderSimple): ckpt_name: Value not in list: 'x.safetensors' not in ['atelier-tiny-sd15-taesd.safetensors', 'atelier-tiny-sd15.safetensors']",
  steps_not_a_number:
    "Prompt outputs failed validation — node 3 (KSampler): steps: Failed to convert an input value to a INT value: {{steps}}, invalid literal for int() with base 10: '{{steps}}'",
  sampler_and_width:
    "Prompt outputs failed validation — node 3 (KSampler): sampler_name: Value not in list: 'nope' not in (list of length 42); node 5 (EmptyLatentImage): width: Value 4 smaller than min of 16",
  scheduler_short_list:
    "Prompt outputs failed validation — node 3 (KSampler): scheduler: Value not in list: 'nope' not in ['simple', 'sgm_uniform', 'karras', 'exponential', 'ddim_uniform', 'beta', 'normal', 'linear_quadratic', 'kl_optimal']",
  cfg_too_big: 'Prompt outputs failed validation — node 3 (KSampler): cfg: Value 1000.0 bigger than max of 100.0',
  unknown_class: "Cannot execute because node NoSuchNode does not exist (Node ID '#9')",
  no_output: 'Prompt has no outputs: the workflow needs an output node such as SaveImage',
  missing_input: 'Prompt outputs failed validation — node 3 (KSampler): seed: Required input is missing',
  link_to_missing_node:
    "Prompt outputs failed validation — node 3 (KSampler): Exception when validating inner node: '99' (a link names node 99, which is not in the workflow)",
  type_mismatch:
    'Prompt outputs failed validation — node 8 (VAEDecode): vae: Return type mismatch between linked nodes: received_type(CLIP) mismatch input_type(VAE)',
  node_without_class_type: "Cannot execute because a node is missing the class_type property (Node ID '#10')",
  no_prompt_key: 'No prompt provided',
};

describe('ComfyUI refusals keep both halves of the explanation', () => {
  it.each(Object.keys(EXPECTED))('%s', (name) => {
    const said = describeRejection(refusals[name]!.json).said!;
    expect(said).toBe(EXPECTED[name]);
    // No stray punctuation where two halves meet.
    expect(said).not.toMatch(/[.!?]:|:\s*:|\( \)|:\s*$|\s[,;:.]/);
  });

  it('covers every 400 the real server sent', () => {
    const recorded = Object.entries(refusals)
      .filter(([, a]) => a !== null && typeof a === 'object' && a.status === 400)
      .map(([name]) => name);
    expect(recorded.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('a plain-text 500 (a body that is not JSON) is quoted, not dropped', async () => {
    const recorded = refusals.not_json!;
    const error = await promptError(
      new Response(recorded.text, { status: recorded.status, headers: { 'content-type': 'text/plain' } }),
      scope(),
    );
    expect(error.message).toBe(
      'ComfyUI failed with HTTP 500. ComfyUI said: "500 Internal Server Error Server got itself in trouble"',
    );
  });

  it('joins a sentence and its detail without ".:"', () => {
    expect(joinClauses('Cannot execute because node X does not exist.', "Node ID '#9'")).toBe(
      "Cannot execute because node X does not exist (Node ID '#9')",
    );
    expect(joinClauses('Value not in list', "'a' not in ['b']")).toBe("Value not in list: 'a' not in ['b']");
    expect(joinClauses('Prompt has no outputs', '')).toBe('Prompt has no outputs');
  });
});

describe('a 200 that still lists node errors', () => {
  const recorded = refusals.two_branches as unknown as { queued: { json: { node_errors: unknown } } };

  it('says which output was dropped and why when Atelier still gets its images', () => {
    const { warning, error } = acceptedWithErrors(recorded.queued.json.node_errors, ['9', '11'], scope());
    expect(error).toBeUndefined();
    expect(warning).toBe(
      'ComfyUI ran the workflow without output node 11, which failed validation: node 10 (LoadImage): image: Custom validation failed for node: Invalid image file: not-there.png',
    );
  });

  it('fails the job when every output Atelier reads from was dropped', () => {
    const { error } = acceptedWithErrors(recorded.queued.json.node_errors, ['11'], scope());
    expect(error).toMatchObject({
      code: 'provider_rejected',
      retryable: false,
      details: expect.objectContaining({ phase: 'after_send', droppedOutputs: ['11'] }),
    });
    expect(error!.message).toBe(
      'ComfyUI dropped the part of the workflow Atelier reads images from (output node 11) because it failed validation: node 10 (LoadImage): image: Custom validation failed for node: Invalid image file: not-there.png',
    );
  });

  it('ignores entries that are not node errors, and redacts what it repeats', () => {
    expect(acceptedWithErrors({ echoed: 'x', 'key sekret-proxy-key': ['sekret-proxy-key'] }, ['9'], scope())).toEqual(
      {},
    );
    const { warning } = acceptedWithErrors(
      {
        '10': {
          class_type: 'LoadImage',
          errors: [{ type: 'custom_validation_failed', message: 'bad sekret-proxy-key', details: '' }],
          dependent_outputs: ['11'],
        },
      },
      ['9'],
      scope(),
    );
    expect(warning).not.toContain('sekret-proxy-key');
  });
});
