/**
 * Vite config for the playground. The root is playground/; the compiler, VM
 * and runtime are imported from the repository (../compiler …) so the browser
 * runs exactly the modules the CLI runs.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  // The repository root holds spells/ (examples) and the sources we import.
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Monaco's editor core is one large chunk; that is expected.
    chunkSizeWarningLimit: 4000,
    // The build timing report (Monaco's worker takes seconds to bundle) is noise in `npm start`'s output.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  worker: { format: 'es' },
});
