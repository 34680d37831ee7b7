import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindOfTarget } from '../../../shared/contract.js';
import { place, type PlacementInstance, type PlacementJob } from '../../../electron/scheduler/placement.js';

const KINDS = ['comfyui', 'a1111'] as const;
const MODELS = ['m1', 'm2', 'm3'] as const;

const instanceArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  free: fc.integer({ min: 0, max: 3 }),
  usable: fc.boolean(),
  down: fc.boolean(),
  models: fc.option(fc.subarray([...MODELS]), { nil: undefined }),
  loadedModel: fc.option(fc.constantFrom(...MODELS), { nil: undefined }),
});

const world = fc
  .array(instanceArb, { minLength: 1, maxLength: 5 })
  .map((list) =>
    list.map((i, n): PlacementInstance => {
      const out: PlacementInstance = {
        id: n === 0 ? i.kind : `${i.kind}-${n + 1}`,
        kind: i.kind,
        free: i.free,
        usable: i.usable && !i.down,
        down: i.down,
      };
      if (i.models !== undefined) out.models = i.models;
      if (i.loadedModel !== undefined) out.loadedModel = i.loadedModel;
      return out;
    }),
  )
  .chain((instances) =>
    fc.record({
      instances: fc.constant(instances),
      jobs: fc.array(
        fc.record({
          target: fc.oneof(
            fc.constantFrom(...KINDS.map((k) => `any:${k}`)),
            fc.constantFrom(...instances.map((i) => i.id)),
          ),
          model: fc.option(fc.constantFrom(...MODELS), { nil: undefined }),
        }),
        { maxLength: 30 },
      ),
      global: fc.integer({ min: 0, max: 12 }),
    }),
  )
  .map(({ instances, jobs, global }) => ({
    instances,
    global,
    jobs: jobs.map((j, n): PlacementJob =>
      j.model === undefined
        ? { id: `job-${n}`, target: j.target }
        : { id: `job-${n}`, target: j.target, model: j.model },
    ),
  }));

const mayHave = (i: PlacementInstance, model: string | undefined): boolean =>
  model === undefined || i.models === undefined || i.models.length === 0 || i.models.includes(model);

/** Could this instance take this job at all (ignoring slots)? The rule the scheduler promises. */
function couldRun(i: PlacementInstance, job: PlacementJob, all: readonly PlacementInstance[]): boolean {
  const kind = kindOfTarget(job.target);
  if (kind === undefined) return job.target === i.id;
  if (i.kind !== kind || !i.usable) return false;
  const anyHasIt = all.some((o) => o.kind === kind && o.usable && mayHave(o, job.model));
  return !anyHasIt || mayHave(i, job.model);
}

describe('placement of queued jobs on instances', () => {
  it('never leaves an instance with a free slot idle while a job it could run waits, and never oversubscribes', () => {
    fc.assert(
      fc.property(world, ({ instances, jobs, global }) => {
        const { placements, waiting } = place(jobs, instances, global);
        expect(placements.length).toBeLessThanOrEqual(global);
        const used = new Map<string, number>();
        for (const p of placements) used.set(p.instance, (used.get(p.instance) ?? 0) + 1);
        for (const i of instances) expect(used.get(i.id) ?? 0).toBeLessThanOrEqual(i.free);
        const placed = new Set(placements.map((p) => p.jobId));
        expect(placed.size).toBe(placements.length);
        // Every placement is one the rules allow.
        for (const p of placements) {
          const job = jobs.find((j) => j.id === p.jobId)!;
          const instance = instances.find((i) => i.id === p.instance)!;
          expect(couldRun(instance, job, instances)).toBe(true);
        }
        // With a global slot left, no waiting job has an instance with a free slot that could run it.
        if (placements.length < global) {
          for (const job of jobs.filter((j) => !placed.has(j.id))) {
            for (const i of instances) {
              if ((used.get(i.id) ?? 0) < i.free) expect(couldRun(i, job, instances)).toBe(false);
            }
          }
        }
        // Only any:<kind> jobs whose every server is down are told they wait, naming one of those servers.
        for (const w of waiting) {
          const job = jobs.find((j) => j.id === w.jobId)!;
          const kind = kindOfTarget(job.target);
          expect(kind).toBeDefined();
          expect(instances.find((i) => i.id === w.instance)).toMatchObject({ kind, down: true });
          expect(instances.some((i) => i.kind === kind && i.usable)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('looks past a job no instance can run now to one an idle instance can', () => {
    const instances: PlacementInstance[] = [
      { id: 'comfyui', kind: 'comfyui', free: 0, usable: true, down: false },
      { id: 'a1111', kind: 'a1111', free: 1, usable: true, down: false },
    ];
    const jobs: PlacementJob[] = [
      { id: 'first', target: 'any:comfyui' },
      { id: 'second', target: 'any:a1111' },
    ];
    expect(place(jobs, instances, 2).placements).toEqual([{ jobId: 'second', instance: 'a1111' }]);
  });

  it('prefers the instance that has the model loaded; a model no server lists does not strand the job', () => {
    const instances: PlacementInstance[] = [
      { id: 'comfyui', kind: 'comfyui', free: 1, usable: true, down: false, models: ['a', 'b'], loadedModel: 'a' },
      { id: 'comfyui-2', kind: 'comfyui', free: 1, usable: true, down: false, models: ['a', 'b'], loadedModel: 'b' },
    ];
    expect(place([{ id: 'j', target: 'any:comfyui', model: 'b' }], instances, 2).placements).toEqual([
      { jobId: 'j', instance: 'comfyui-2' },
    ]);
    expect(place([{ id: 'j', target: 'any:comfyui', model: 'zzz' }], instances, 2).placements).toHaveLength(1);
  });

  it("a job asking for a down instance by id is tried there (it fails unsent, in the server's words); any:<kind> goes elsewhere", () => {
    const instances: PlacementInstance[] = [
      { id: 'comfyui', kind: 'comfyui', free: 1, usable: false, down: true },
      { id: 'comfyui-2', kind: 'comfyui', free: 1, usable: true, down: false },
    ];
    const result = place(
      [
        { id: 'pinned', target: 'comfyui' },
        { id: 'any', target: 'any:comfyui' },
      ],
      instances,
      4,
    );
    expect(result).toEqual({
      placements: [
        { jobId: 'pinned', instance: 'comfyui' },
        { jobId: 'any', instance: 'comfyui-2' },
      ],
      waiting: [],
    });
  });

  it('any:<kind> waits while every server of the kind is down', () => {
    const down: PlacementInstance[] = [
      { id: 'comfyui', kind: 'comfyui', free: 1, usable: false, down: true },
      { id: 'comfyui-2', kind: 'comfyui', free: 1, usable: false, down: true },
    ];
    expect(place([{ id: 'any', target: 'any:comfyui' }], down, 4)).toEqual({
      placements: [],
      waiting: [{ jobId: 'any', instance: 'comfyui' }],
    });
  });
});
