/**
 * `npm run generate`: writes vm/generated/interpreter.ts from the instruction
 * definitions (run from dist/ after a build; the build then runs again).
 */

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { interpreterSource } from './interpreter-source.js';

function main(): void {
  const target = fileURLToPath(new URL('../../../vm/generated/interpreter.ts', import.meta.url));
  writeFileSync(target, interpreterSource());
  console.log(`wrote ${target}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
