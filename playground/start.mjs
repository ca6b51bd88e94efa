#!/usr/bin/env node
/**
 * `npm start`: build the playground for production, serve playground/dist on
 * localhost (the first free port from 5180) and print its URL.
 * `npm run dev` runs Vite's dev server instead (hot reload).
 */
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

const configFile = fileURLToPath(new URL('./vite.config.ts', import.meta.url));
const port = Number(process.env.PORT) || 5180;

try {
  console.log('Building the Cantrip playground…');
  await build({ configFile, logLevel: 'warn' });
  const server = await preview({ configFile, logLevel: 'warn', preview: { port, strictPort: false, open: false } });
  const address = server.httpServer.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  console.log(`Cantrip playground: http://localhost:${actualPort}/  (open it in your browser)`);
  console.log('Press Ctrl+C to stop.');
} catch (e) {
  console.error(`Could not start the playground: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
