import { defineConfig } from 'vite';

// The renderer is loaded from a custom protocol (Electron) and from the headless host: relative asset URLs work in both.
export default defineConfig({
  root: 'renderer',
  base: './',
  // Vite 8 compiles TSX with oxc; the automatic runtime means no `import React` in every component.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
});
