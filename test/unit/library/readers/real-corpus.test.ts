import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { IMAGE_SOURCES, type ImageRead, type LoraRef } from '../../../../electron/library/readers/types.js';

/**
 * Real files of real tools (test/fixtures/real/<tool>/<file> with a `<file>.json` sidecar, see its README.md), read
 * the way an import reads them, field by field against what each file says. Prints a table per tool and every miss.
 */

const ROOT = join(import.meta.dirname, '../../../fixtures/real');

// Each miss is printed below the table, so a reader that slips shows which file and field.
const MIN_ACCURACY = 0.98;
const MIN_FILES = 80;
const MIN_TOOLS = 15;

interface Sidecar {
  tool: string;
  version: string;
  origin: string;
  licence: string;
  expectedFrom: string;
  expected: Record<string, unknown>;
}

interface Case {
  file: string;
  sidecar: Sidecar;
}

function cases(dir: string): Case[] {
  const out: Case[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...cases(path));
    else if (name.endsWith('.json') && statSync(path.slice(0, -5), { throwIfNoEntry: false })?.isFile()) {
      out.push({ file: path.slice(0, -5), sidecar: JSON.parse(readFileSync(path, 'utf8')) as Sidecar });
    }
  }
  return out;
}

function loraKeys(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return (value as LoraRef[]).map((l) => `${String(l.name).trim()}|${l.weight ?? 1}`).sort();
}

/** Strings trimmed, numbers exact, LoRAs by name and weight in any order. */
function same(expected: unknown, actual: unknown, key: string): boolean {
  if (key === 'loras') return JSON.stringify(loraKeys(expected)) === JSON.stringify(loraKeys(actual));
  if (typeof expected === 'string') return typeof actual === 'string' && actual.trim() === expected.trim();
  return expected === actual;
}

function got(read: ImageRead, key: string): unknown {
  if (key === 'source') return read.source;
  return (read.settings as Record<string, unknown>)[key];
}

const short = (value: unknown): string => {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

interface Tally {
  files: number;
  fields: number;
  right: number;
}

describe('the real-file corpus', () => {
  it('reads every real file of every tool, field by field', async () => {
    const all = cases(ROOT);
    const byTool = new Map<string, Tally>();
    const misses: string[] = [];
    const failures: string[] = [];
    for (const { file, sidecar } of all) {
      const name = relative(ROOT, file);
      const tally = byTool.get(sidecar.tool) ?? { files: 0, fields: 0, right: 0 };
      byTool.set(sidecar.tool, tally);
      tally.files += 1;
      let read: ImageRead;
      try {
        read = await readImageMetadata(new Uint8Array(readFileSync(file)));
      } catch (error) {
        failures.push(`${name}: ${String(error)}`);
        tally.fields += Object.keys(sidecar.expected).length;
        continue;
      }
      for (const [key, expected] of Object.entries(sidecar.expected)) {
        tally.fields += 1;
        const actual = got(read, key);
        if (same(expected, actual, key)) tally.right += 1;
        else misses.push(`${name}  ${key}: expected ${short(expected)}, got ${short(actual)}`);
      }
    }
    const total = [...byTool.values()].reduce(
      (sum, t) => ({ files: sum.files + t.files, fields: sum.fields + t.fields, right: sum.right + t.right }),
      { files: 0, fields: 0, right: 0 },
    );
    const pct = (t: Tally) => `${((100 * t.right) / Math.max(1, t.fields)).toFixed(1)}%`;
    const rows = [...byTool].sort(([a], [b]) => a.localeCompare(b));
    const table = [
      'tool                 files fields  right      %',
      ...rows.map(
        ([tool, t]) =>
          `${tool.padEnd(20)} ${String(t.files).padStart(5)} ${String(t.fields).padStart(6)} ${String(t.right).padStart(6)} ${pct(t).padStart(6)}`,
      ),
      `${'all'.padEnd(20)} ${String(total.files).padStart(5)} ${String(total.fields).padStart(6)} ${String(total.right).padStart(6)} ${pct(total).padStart(6)}`,
    ];
    console.log(`${table.join('\n')}\n${misses.length} misses${misses.length > 0 ? `:\n${misses.join('\n')}` : ''}`);

    expect(failures).toEqual([]);
    expect(total.files).toBeGreaterThanOrEqual(MIN_FILES);
    expect(byTool.size).toBeGreaterThanOrEqual(MIN_TOOLS);
    expect(total.right / total.fields).toBeGreaterThanOrEqual(MIN_ACCURACY);
  });

  it('README.md has a row for every file (npx tsx test/fixtures/real/readme.ts writes it)', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const missing = cases(ROOT)
      .map(({ file }) => relative(ROOT, file))
      .filter((name) => !readme.includes(`| ${name.replace(/\|/g, '\\|')} |`));
    expect(missing).toEqual([]);
  });

  it('every sidecar says where its file came from and what it says, in the shared format', () => {
    const wrong = cases(ROOT).flatMap(({ file, sidecar }) => {
      const name = relative(ROOT, file);
      const e = sidecar.expected;
      const faults = [
        ...(['tool', 'version', 'origin', 'licence', 'expectedFrom'] as const)
          .filter((key) => typeof sidecar[key] !== 'string' || sidecar[key].trim() === '')
          .map((key) => `no ${key}`),
        ...(IMAGE_SOURCES.includes(e['source'] as never) ? [] : [`source ${String(e['source'])}`]),
        ...(e['seed'] === undefined || (typeof e['seed'] === 'string' && /^\d+$/.test(e['seed']))
          ? []
          : ['seed is not decimal text']),
        ...(sidecar.origin.startsWith('https://') ? [] : ['origin is not a URL']),
        ...(statSync(file).size <= 2 * 1024 * 1024 ? [] : ['over 2 MB']),
      ];
      return faults.map((fault) => `${name}: ${fault}`);
    });
    expect(wrong).toEqual([]);
  });
});
