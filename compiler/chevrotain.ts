/**
 * chevrotain, loaded fast. Its package entry imports lodash-es as hundreds
 * of separate modules, which made every `cantrip` command spend most of a
 * second just starting. The package also ships a single-file bundle of the
 * very same code; under Node we load that one (found next to the entry, so
 * it works wherever npm put the package). Browsers (the playground, bundled
 * by Vite) and anything unusual take the normal entry.
 *
 * Only this file may import chevrotain at run time; elsewhere use
 * `import type … from 'chevrotain'` plus the values re-exported here.
 */

type Chevrotain = typeof import('chevrotain');

async function load(): Promise<Chevrotain> {
  const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  if (isNode && typeof import.meta.resolve === 'function') {
    try {
      const entry = import.meta.resolve('chevrotain'); // …/chevrotain/lib/src/api.js
      return (await import(new URL('../chevrotain.mjs', entry).href)) as Chevrotain;
    } catch {
      // fall through to the package entry
    }
  }
  return import('chevrotain');
}

const chevrotain = await load();

export const { createToken, EmbeddedActionsParser, Lexer, tokenMatcher } = chevrotain;
