/**
 * Vite config for the zone server's browser page (`cantrip serve` serves it
 * at `/` from dist/serve-page). A second small app beside the playground: it
 * shares the playground's world drawing (../src/world) and theme, and
 * imports the protocol from server/protocol.ts. Built by `npm run build`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  server: { fs: { allow: [fileURLToPath(new URL('../..', import.meta.url))] } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/serve-page', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
