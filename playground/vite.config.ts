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

/**
 * The page's second chunk (the compiler, runtime and VM: src/startPlayground.ts) is imported by
 * main.ts, but Vite starts that fetch only once the first chunk has run, after the editor is made.
 * A modulepreload link fetches it alongside the first chunk instead, so it is there when the
 * editor is.
 */
const preloadToolchain: Plugin = {
  name: 'cantrip-preload-toolchain',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(_html, context) {
      const chunk = Object.values(context.bundle ?? {}).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/startPlayground.ts'));
      if (chunk === undefined) throw new Error('the build has no chunk for src/startPlayground.ts to preload');
      return [{ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${chunk.fileName}` }, injectTo: 'head' }];
    },
  },
};

export default defineConfig({
  root,
  plugins: [chevrotainForBrowsers, preloadToolchain],
  base: './',
  // The repository root holds spells/ (examples) and the sources we import.
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Monaco's editor core is one large chunk (~3.6 MB, the page's first); that is expected.
    chunkSizeWarningLimit: 4000,
    // The build timing report (Monaco's worker takes seconds to bundle) is noise in `npm start`'s output.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  worker: { format: 'es', plugins: () => [chevrotainForBrowsers] },
});
