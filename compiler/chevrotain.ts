/**
 * chevrotain, loaded fast and synchronously. Its package entry imports
 * lodash-es as hundreds of separate modules, which made every `cantrip`
 * command spend most of a second just starting (~230 ms against ~12 ms here).
 * The package also ships a single-file bundle of the very same code; under
 * Node we load that one (found next to the entry, so it works wherever npm put
 * the package).
 *
 * Synchronously, through `require`, and never with a top-level `await`: a
 * module with a top-level await cannot be `require()`d, and a CommonJS game
 * that requires Cantrip must work (Node 20.19+ / 22.12+ load ES modules from
 * `require`, and that is also what loads the bundle here).
 *
 * Browsers take `chevrotain.browser.ts` instead (the package.json `browser`
 * field for bundlers that build the package; a resolve plugin in the
 * playground's Vite config for the sources).
 *
 * Only this file (and its browser twin) may import chevrotain at run time;
 * elsewhere use `import type … from 'chevrotain'` plus the values re-exported
 * here.
 */

type Chevrotain = typeof import('chevrotain');

/** The Node versions whose `require` loads ES modules (the bundle is one). */
export const REQUIRE_ESM_NODE = 'Node 20.19+ or 22.12+';

function load(): Chevrotain {
  const node = globalThis.process;
  if (typeof node?.getBuiltinModule !== 'function') {
    throw new Error(`Cantrip's compiler needs ${REQUIRE_ESM_NODE} (this is ${node?.versions?.node ? `Node ${node.versions.node}` : 'not Node'}); in a browser, use a bundler that reads the package's "browser" field.`);
  }
  const { createRequire } = node.getBuiltinModule('node:module');
  const { dirname, join } = node.getBuiltinModule('node:path');
  const require = createRequire(import.meta.url);
  const entry = require.resolve('chevrotain'); // …/chevrotain/lib/src/api.js
  try {
    return require(join(dirname(entry), '..', 'chevrotain.mjs')) as Chevrotain;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_REQUIRE_ESM') throw new Error(`Cantrip's compiler needs ${REQUIRE_ESM_NODE} (this is Node ${node.versions.node}).`);
    if (code === 'MODULE_NOT_FOUND') return require('chevrotain') as Chevrotain; // no bundle: the slow entry still works
    throw error;
  }
}

export const { createToken, EmbeddedActionsParser, Lexer, LLkLookaheadStrategy, tokenMatcher } = load();
