/**
 * Vite config for the playground. The root is playground/; the compiler, VM
 * and runtime are imported from the repository (../compiler …) so the browser
 * runs exactly the modules the CLI runs.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The compiler's chevrotain loader for browsers (what the package.json `browser` field does for the built package). */
const chevrotainForBrowsers: Plugin = {
  name: 'cantrip-chevrotain-for-browsers',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source !== './chevrotain.js' || !importer?.includes('/compiler/')) return null;
    return fileURLToPath(new URL('../compiler/chevrotain.browser.ts', import.meta.url));
  },
};

export default defineConfig({
  root,
  plugins: [chevrotainForBrowsers],
  base: './',
  // The repository root holds spells/ (examples) and the sources we import.
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Monaco's editor core, the compiler and chevrotain are one large chunk (~4.1 MB); that is expected.
    chunkSizeWarningLimit: 4500,
    // The build timing report (Monaco's worker takes seconds to bundle) is noise in `npm start`'s output.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  worker: { format: 'es', plugins: () => [chevrotainForBrowsers] },
});
