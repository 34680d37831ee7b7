// The render worker's layers (render-worker.mjs): each scene layer as a painter, the cloud field, the blend
// with a source image. Plain JavaScript for the same reason as the worker itself.
import { hash2, vnoise, fbm, smoothstep } from './render-noise.mjs';

// Each layer becomes a closure over its own constants (fast, monomorphic property-free inner loops). Work that
// depends on one axis only (ridge tops, wave surfaces, building heights) is computed once per column.

/** Returns paint(px, u, v, x, y, o): blends the layer over colour o (r, g, b in 0..1) at one pixel. */
export function makePainter(layer, width, aspect, aa, s) {
  switch (layer.kind) {
    case 'disc': {
      const cx = layer.x * aspect[0];
      const cy = layer.y * aspect[1];
      const r = layer.r;
      const glow = layer.glow;
      const [cr, cg, cb] = layer.color;
      const falloff = 1 / (r * 0.9);
      return (px, u, v, x, y, o) => {
        const dx = x - cx;
        const dy = y - cy;
        const d = Math.sqrt(dx * dx + dy * dy);
        const halo = Math.min(1, Math.exp(-Math.max(0, d - r) * falloff) * 0.45 * glow);
        o[0] += (cr - o[0]) * halo;
        o[1] += (cg - o[1]) * halo;
        o[2] += (cb - o[2]) * halo;
        if (d < r + aa) {
          const cover = smoothstep(r + aa, r - aa, d);
          const tex = 0.9 + 0.1 * vnoise(x * 14, y * 14, s + 71);
          o[0] += (cr * tex + 0.08 - o[0]) * cover;
          o[1] += (cg * tex + 0.08 - o[1]) * cover;
          o[2] += (cb * tex + 0.06 - o[2]) * cover;
        }
      };
    }
    case 'rings': {
      const cx = layer.x * aspect[0];
      const cy = layer.y * aspect[1];
      const inv = 1 / layer.spacing;
      const edge = aa * inv;
      const w = layer.width;
      const alpha = layer.alpha;
      const [cr, cg, cb] = layer.color;
      return (px, u, v, x, y, o) => {
        const dx = x - cx;
        const dy = y - cy;
        const d = Math.sqrt(dx * dx + dy * dy);
        const phase = (d * inv) % 1;
        const a = smoothstep(w + edge, w - edge, Math.abs(phase - 0.5) * 2) * alpha * Math.exp(-d * 1.2);
        o[0] += (cr - o[0]) * a;
        o[1] += (cg - o[1]) * a;
        o[2] += (cb - o[2]) * a;
      };
    }
    case 'stripes': {
      const kx = Math.cos(layer.angle) * layer.freq;
      const ky = Math.sin(layer.angle) * layer.freq;
      const alpha = layer.alpha;
      const [cr, cg, cb] = layer.color;
      return (px, u, v, x, y, o) => {
        const w = 0.5 + 0.5 * Math.sin(x * kx + y * ky + vnoise(x * 3, y * 3, s + 5) * 2);
        if (w < 0.6) return;
        const a = smoothstep(0.6, 0.9, w) * alpha;
        o[0] += (cr - o[0]) * a;
        o[1] += (cg - o[1]) * a;
        o[2] += (cb - o[2]) * a;
      };
    }
    case 'orbs': {
      const n = layer.orbs.length;
      const ox = new Float64Array(n);
      const oy = new Float64Array(n);
      const or = new Float64Array(n);
      const oc = new Float64Array(n * 3);
      layer.orbs.forEach((orb, i) => {
        ox[i] = orb.x * aspect[0];
        oy[i] = orb.y * aspect[1];
        or[i] = orb.r;
        oc.set(orb.color, i * 3);
      });
      const alpha = layer.alpha;
      return (px, u, v, x, y, o) => {
        for (let i = 0; i < n; i += 1) {
          const r = or[i];
          const dx = x - ox[i];
          const dy = y - oy[i];
          if (dx > r * 4 || dx < -r * 4 || dy > r * 4 || dy < -r * 4) continue;
          const d = Math.sqrt(dx * dx + dy * dy);
          const a = Math.min(1, smoothstep(r + aa, r * 0.6 - aa, d) * 0.8 + Math.exp(-d / r) * 0.25) * alpha;
          o[0] += (oc[i * 3] - o[0]) * a;
          o[1] += (oc[i * 3 + 1] - o[1]) * a;
          o[2] += (oc[i * 3 + 2] - o[2]) * a;
        }
      };
    }
    case 'ridges': {
      const count = layer.count;
      const tops = new Float64Array(count * width);
      const colours = new Float64Array(count * 3);
      for (let i = 0; i < count; i += 1) {
        const depth = i / Math.max(1, count - 1);
        for (let px = 0; px < width; px += 1) {
          const u = (px + 0.5) / width;
          let n = fbm(u * layer.freq * (1 + i * 0.6) * aspect[0], i * 7.3, (s + layer.salt + i * 131) | 0, 5);
          if (layer.spiky) n = n * 0.7 + 0.3 * Math.abs(Math.sin(u * aspect[0] * 90 * (1 + i * 0.3) + i));
          else n = 1 - Math.abs(2 * n - 1);
          tops[i * width + px] = layer.base + depth * 0.12 - layer.amp * (1 - depth * 0.4) * n;
        }
        const haze = (1 - depth) * 0.65;
        for (let ch = 0; ch < 3; ch += 1)
          colours[i * 3 + ch] = layer.color[ch] + (layer.haze[ch] - layer.color[ch]) * haze;
      }
      return (px, u, v, x, y, o) => {
        for (let i = 0; i < count; i += 1) {
          const top = tops[i * width + px];
          if (v < top - aa) continue;
          const cover = smoothstep(top - aa * 0.5, top + aa, v);
          const k = 1 - 0.25 * smoothstep(top, top + 0.3, v);
          o[0] += (colours[i * 3] * k - o[0]) * cover;
          o[1] += (colours[i * 3 + 1] * k - o[1]) * cover;
          o[2] += (colours[i * 3 + 2] * k - o[2]) * cover;
        }
      };
    }
    case 'skyline': {
      const cols = layer.cols;
      const base = layer.base;
      const salt = (s + layer.salt + 3) | 0;
      const tops = new Float64Array(cols);
      for (let c = 0; c < cols; c += 1)
        tops[c] = base - layer.maxHeight * (0.3 + 0.7 * hash2(c, 3, (s + layer.salt) | 0));
      const [cr, cg, cb] = layer.color;
      const [lr, lg, lb] = layer.light;
      return (px, u, v, x, y, o) => {
        const colF = u * cols;
        const col = Math.floor(colF);
        const top = tops[col];
        if (v < top - aa) return;
        const inCol = colF - col;
        const gap = smoothstep(0.0, 0.06, inCol) * smoothstep(1.0, 0.94, inCol);
        const cover = smoothstep(top - aa, top + aa, v) * (v > base ? 1 : gap);
        o[0] += (cr - o[0]) * cover;
        o[1] += (cg - o[1]) * cover;
        o[2] += (cb - o[2]) * cover;
        const wy = (v - top) * 60;
        if (
          v < base &&
          (inCol * 5) % 1 > 0.35 &&
          wy % 1 > 0.4 &&
          hash2(col * 7 + Math.floor(inCol * 5), Math.floor(wy), salt) > 0.72
        ) {
          const a = cover * 0.85;
          o[0] += (lr - o[0]) * a;
          o[1] += (lg - o[1]) * a;
          o[2] += (lb - o[2]) * a;
        }
      };
    }
    case 'waves': {
      const surface = new Float64Array(width);
      const noise = new Float64Array(width);
      for (let px = 0; px < width; px += 1) {
        const u = (px + 0.5) / width;
        const n = fbm(u * 6 * aspect[0], 0.5, (s + layer.salt) | 0, 3);
        noise[px] = n;
        surface[px] = layer.level + layer.amp * Math.sin(u * layer.freq * aspect[0] + n * 4);
      }
      const level = layer.level;
      const [cr, cg, cb] = layer.color;
      const [hr, hg, hb] = layer.highlight;
      return (px, u, v, x, y, o) => {
        const top = surface[px];
        if (v < top - aa) return;
        const n = noise[px];
        const cover = smoothstep(top - aa, top + aa, v);
        const depthT = Math.max(0, Math.min(1, (v - level) * 3));
        const k = 1 - 0.4 * depthT;
        o[0] += (cr * k - o[0]) * cover;
        o[1] += (cg * k - o[1]) * cover;
        o[2] += (cb * k - o[2]) * cover;
        const ripple = Math.sin((v - level) * (120 + 60 * n) + n * 9 + Math.sin(x * 9 + n * 5) * 2);
        if (ripple < 0.75) return;
        const a = cover * smoothstep(0.75, 1, ripple) * 0.5 * (1 - depthT * 0.7);
        o[0] += (hr - o[0]) * a;
        o[1] += (hg - o[1]) * a;
        o[2] += (hb - o[2]) * a;
      };
    }
    default:
      return () => undefined;
  }
}

/** The cloud field on a coarse grid (rows computed as the bands reach them), bilinearly interpolated. */
export function cloudField(scene, width, height, minSide) {
  const step = Math.max(2, Math.floor(minSide / 128));
  const gw = Math.ceil(width / step) + 2;
  const gh = Math.ceil(height / step) + 2;
  const grid = new Float32Array(gw * gh);
  const s = scene.seed | 0;
  let ready = 0;
  function ensureRow(row) {
    while (ready <= row && ready < gh) {
      const y = (ready * step + 0.5) / minSide;
      for (let gx = 0; gx < gw; gx += 1) {
        const x = (gx * step + 0.5) / minSide;
        const qx = fbm(x * 1.7 + 3.1, y * 1.7, s + 17, 3);
        const qy = fbm(x * 1.7, y * 1.7 + 5.3, s + 29, 3);
        grid[ready * gw + gx] = fbm(x * 2.2 + scene.warp * qx, y * 3.2 + scene.warp * qy, s + 41, scene.octaves);
      }
      ready += 1;
    }
  }
  return {
    ensureRows(py1) {
      ensureRow(Math.floor(py1 / step) + 1);
    },
    at(px, py) {
      const fx = px / step;
      const fy = py / step;
      const gx = Math.floor(fx);
      const gy = Math.floor(fy);
      const tx = fx - gx;
      const ty = fy - gy;
      const i = gy * gw + gx;
      const a = grid[i];
      const b = grid[i + 1];
      const c = grid[i + gw];
      const d = grid[i + gw + 1];
      return a + (b - a) * tx + (c - a) * ty + (a - b - c + d) * tx * ty;
    },
  };
}

/**
 * Working from an image, in two movements that both grow with the strength (times the mask's value in a masked
 * edit): first the source takes the new scene's colours while keeping its own light and shapes (its luminance),
 * then, more slowly (strength²), the scene's own shapes come through. A low strength restyles the picture, a high
 * one leaves little of it, 1 is the scene alone; where the weight is 0 (outside the mask) the source byte is kept.
 */
export function blendRows(out, base, width, y0, y1) {
  const { pixels, mask, strength } = base;
  for (let p = y0 * width; p < y1 * width; p += 1) {
    const s = mask === undefined ? strength : (strength * mask[p]) / 255;
    const i = p * 3;
    if (s <= 0) {
      out[i] = pixels[i];
      out[i + 1] = pixels[i + 1];
      out[i + 2] = pixels[i + 2];
      continue;
    }
    const colour = Math.min(1, s * 1.4);
    const shape = s * s;
    const r0 = pixels[i];
    const g0 = pixels[i + 1];
    const b0 = pixels[i + 2];
    const r1 = out[i];
    const g1 = out[i + 1];
    const b1 = out[i + 2];
    const lumSource = 0.2126 * r0 + 0.7152 * g0 + 0.0722 * b0;
    const lumScene = 0.2126 * r1 + 0.7152 * g1 + 0.0722 * b1;
    // The scene's colour at the source's brightness.
    const shift = lumSource - lumScene;
    const rc = r0 + (r1 + shift - r0) * colour;
    const gc = g0 + (g1 + shift - g0) * colour;
    const bc = b0 + (b1 + shift - b0) * colour;
    out[i] = Math.max(0, Math.min(255, Math.round(rc + (r1 - rc) * shape)));
    out[i + 1] = Math.max(0, Math.min(255, Math.round(gc + (g1 - gc) * shape)));
    out[i + 2] = Math.max(0, Math.min(255, Math.round(bc + (b1 - bc) * shape)));
  }
}
