// The built-in generator's pixel work, run in a worker thread (see worker-pool.ts).
// Plain JavaScript on purpose: a worker script is loaded by Node itself, not by vitest's or tsx's TypeScript
// transform, so .mjs runs unchanged from source (tests) and, copied next to the bundle, from a build.
// Input: a scene from scene.ts (plain JSON). Output: RGB bytes, rendered in row bands; between bands the worker
// posts progress and checks the shared abort word, so a cancel lands within one band (a few milliseconds).
import { platform, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { hash2, smoothstep } from './render-noise.mjs';
import { makePainter, cloudField, blendRows } from './render-layers.mjs';

// Linux keeps a nice value per thread: a lower priority for rendering leaves the core to the main loop, which
// answers requests and events. (Elsewhere it would lower the whole process, so it is left alone there.)
if (platform() === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    // Not permitted (some sandboxes): render at normal priority.
  }
}

const abortWord = new Int32Array(workerData.abort);

/**
 * Renders the scene at width×height as RGB bytes, or returns null when the abort word names this task.
 * Grain (±0.5 level, per pixel) dithers the gradients so they don't band. With `base` (a source image of this
 * size), each band is blended with it (blendRows).
 */
function render(task) {
  const { width, height, scene, taskId, base } = task;
  const minSide = Math.min(width, height);
  const aspect = [width / minSide, height / minSide];
  const s = scene.seed | 0;
  const clouds = cloudField(scene, width, height, minSide);
  const aa = 1.5 / minSide;
  const painters = scene.layers.map((layer) => makePainter(layer, width, aspect, aa, s));
  const out = new Uint8Array(width * height * 3);
  const o = [0, 0, 0];
  const bandRows = Math.max(1, Math.floor(32768 / width));
  const grainSeed = (scene.seed ^ 0x5bd1e995) | 0;
  const { skyTop, skyBottom, cloud } = scene;
  for (let y0 = 0; y0 < height; y0 += bandRows) {
    if (Atomics.load(abortWord, 0) === taskId) return null;
    const y1 = Math.min(height, y0 + bandRows);
    clouds.ensureRows(y1);
    for (let py = y0; py < y1; py += 1) {
      const v = (py + 0.5) / height;
      const y = (py + 0.5) / minSide;
      const t = Math.pow(v, 0.9);
      const glow = Math.exp(-Math.pow((v - scene.horizon) * 5, 2)) * 0.18;
      const skyR = skyTop[0] + (skyBottom[0] - skyTop[0]) * t + glow * cloud[0];
      const skyG = skyTop[1] + (skyBottom[1] - skyTop[1]) * t + glow * cloud[1];
      const skyB = skyTop[2] + (skyBottom[2] - skyTop[2]) * t + glow * cloud[2];
      const cloudAmount = scene.clouds * (1 - 0.6 * v);
      const dv = v - 0.5;
      let i = py * width * 3;
      for (let px = 0; px < width; px += 1) {
        const u = (px + 0.5) / width;
        const x = (px + 0.5) / minSide;
        const a = smoothstep(0.42, 0.8, clouds.at(px, py)) * cloudAmount;
        o[0] = skyR + (cloud[0] - skyR) * a;
        o[1] = skyG + (cloud[1] - skyG) * a;
        o[2] = skyB + (cloud[2] - skyB) * a;
        for (let l = 0; l < painters.length; l += 1) painters[l](px, u, v, x, y, o);
        const du = u - 0.5;
        const vig = 1 - scene.vignette * (du * du + dv * dv) * 2;
        const r = o[0] * vig;
        const g = o[1] * vig;
        const b = o[2] * vig;
        // Saturation around luminance (guidance).
        const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        const grain = hash2(px, py, grainSeed) - 0.5;
        out[i] = Math.max(0, Math.min(255, Math.round((lum + (r - lum) * scene.saturation) * 255 + grain)));
        out[i + 1] = Math.max(0, Math.min(255, Math.round((lum + (g - lum) * scene.saturation) * 255 + grain)));
        out[i + 2] = Math.max(0, Math.min(255, Math.round((lum + (b - lum) * scene.saturation) * 255 + grain)));
        i += 3;
      }
    }
    if (base !== undefined) blendRows(out, base, width, y0, y1);
    parentPort.postMessage({ type: 'progress', taskId, rows: y1 });
  }
  return out;
}

parentPort.on('message', (task) => {
  if (task.type !== 'render') return;
  try {
    const pixels = render(task);
    if (pixels === null) parentPort.postMessage({ type: 'aborted', taskId: task.taskId });
    else parentPort.postMessage({ type: 'done', taskId: task.taskId, pixels: pixels.buffer }, [pixels.buffer]);
  } catch (error) {
    parentPort.postMessage({ type: 'error', taskId: task.taskId, message: String((error && error.message) || error) });
  }
});
