// The layer table of docs/ARCHITECTURE.md as rules: each folder imports only the folders listed for it, and no
// module imports itself back through others (type-only imports count: tsPreCompilationDeps).
// test/unit/architecture/layers.test.ts proves each rule fires on a deliberately bad import.

/** Folder → the folders it may import (besides itself and npm packages). Bottom of the stack first. */
const LAYERS = {
  shared: [],
  'electron/base': ['shared'],
  'electron/db': ['electron/base', 'shared'],
  'electron/providers': ['electron/base', 'shared'],
  'electron/media': ['electron/base', 'electron/db', 'electron/providers', 'shared'],
  'electron/library': ['electron/base', 'electron/db', 'electron/media', 'electron/providers', 'shared'],
  // The spend gate admits paid jobs against monthly caps and records what they cost.
  'electron/spend': ['electron/base', 'electron/db', 'shared'],
  // The scheduler admits and records paid jobs through the spend gate.
  'electron/scheduler': [
    'electron/base',
    'electron/db',
    'electron/media',
    'electron/providers',
    'electron/spend',
    'shared',
  ],
  'electron/engine': [
    'electron/base',
    'electron/db',
    'electron/library',
    'electron/media',
    'electron/providers',
    'electron/scheduler',
    'electron/spend',
    'shared',
  ],
  'electron/host': ['electron/base', 'electron/engine', 'electron/library', 'electron/media', 'shared'],
  'electron/serve': ['electron/base', 'electron/engine', 'electron/host', 'electron/library', 'shared'],
  'electron/desktop': ['electron/base', 'electron/engine', 'electron/host', 'electron/providers', 'shared'],
  // The Electron glue sits on top of everything the main process has.
  'electron/glue': [
    'electron/base',
    'electron/desktop',
    'electron/engine',
    'electron/host',
    'electron/providers',
    'electron/serve',
    'shared',
  ],
  'renderer/src': ['shared'],
};

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const LOCAL = '^(electron|shared|renderer)/';

const layerRules = Object.entries(LAYERS).map(([from, allowed]) => ({
  name: `layer:${from}`,
  comment: `${from}/ may import only ${allowed.length === 0 ? 'npm packages' : allowed.join(', ')} (docs/ARCHITECTURE.md)`,
  severity: 'error',
  from: { path: `^${escape(from)}/` },
  to: { path: LOCAL, pathNot: [from, ...allowed].map((folder) => `^${escape(folder)}/`) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'An import cycle, type-only ones included: the next value import would close it for real.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/', '\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.web.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
