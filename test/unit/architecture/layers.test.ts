import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';

// The rules npm test runs (`npm run lint:deps`), read from the one config file.
const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
};
const layerRules = config.forbidden.filter((rule) => rule.name?.startsWith('layer:'));
const folderOf = (rule: IForbiddenRuleType): string => (rule.name ?? '').slice('layer:'.length);
const FOLDERS = layerRules.map(folderOf);

const root = mkdtempSync(join(tmpdir(), 'atelier-layers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A type-only import from one file to another: the cheapest import, and still one the rules must see. */
function typeImport(from: string, to: string): void {
  const spec = relative(dirname(from), to).replace(/\.ts$/, '');
  write(from, `import type { T } from '${spec.startsWith('.') ? spec : `./${spec}`}';\nexport type U = T;\n`);
  write(to, 'export type T = number;\n');
}

async function violationsIn(files: string[]): Promise<Array<{ rule: string; from: string; to: string }>> {
  const previous = process.cwd();
  process.chdir(root);
  try {
    const output = await cruise(
      files,
      { validate: true, ruleSet: { forbidden: config.forbidden }, tsPreCompilationDeps: true },
      { extensions: ['.ts'] },
    );
    const result = output.output as ICruiseResult;
    return result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
  } finally {
    process.chdir(previous);
  }
}

describe('the layer and cycle rules of .dependency-cruiser.cjs are alive', () => {
  it('has a layer rule for every folder of the table, and a cycle rule', () => {
    expect(FOLDERS).toEqual(expect.arrayContaining(['shared', 'electron/base', 'electron/engine', 'renderer/src']));
    expect(config.forbidden.some((rule) => rule.name === 'no-circular')).toBe(true);
  });

  it.each(layerRules.map((rule) => [folderOf(rule), rule] as const))(
    '%s: an import of a folder it may not use is reported',
    async (folder, rule) => {
      const allowed = (rule as { to: { pathNot: string[] } }).to.pathNot.map((p) =>
        p.replace(/^\^/, '').replace(/\\\//g, '/').replace(/\/$/, ''),
      );
      const target = FOLDERS.find((other) => !allowed.includes(other));
      expect(target, `${folder} may import every folder: the rule is empty`).toBeDefined();
      const from = `${folder}/bad.ts`;
      typeImport(from, `${target}/above.ts`);
      const found = await violationsIn([from]);
      expect(found).toContainEqual({ rule: `layer:${folder}`, from, to: `${target}/above.ts` });
    },
  );

  it('an allowed import is not reported (electron/engine uses electron/db)', async () => {
    typeImport('electron/engine/good.ts', 'electron/db/below.ts');
    expect(await violationsIn(['electron/engine/good.ts'])).toEqual([]);
  });

  it('a cycle made only of type imports is reported', async () => {
    write('electron/db/ring-a.ts', "import type { B } from './ring-b';\nexport type A = B | 1;\n");
    write('electron/db/ring-b.ts', "import type { A } from './ring-a';\nexport type B = A | 2;\n");
    const found = await violationsIn(['electron/db/ring-a.ts']);
    expect(found.map((v) => v.rule)).toContain('no-circular');
  });
});
