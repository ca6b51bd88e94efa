/**
 * Giving the memory of dropped analyses back. V8 grows its heap lazily, up
 * to a limit of a quarter of the machine's memory (4 GB here): the ~170 MB
 * analysis of a 1 MB file that the language service's budget drops stays
 * in the heap as garbage until the heap nears a limit V8 picks, so an
 * editor with many large files open saw the server's RSS climb past 2 GB
 * while it kept a few hundred MB alive. When the service drops large
 * analyses, the server has a full collection run once the current request
 * is answered.
 *
 * Node offers no API for it without `--expose-gc` on its command line (the
 * editor starts the server; its flags are the editor's), so the flag is
 * set at run time and `gc` taken from a new context, where V8 installs it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Dropping less source than this leaves the collection to V8. */
const COLLECT_AFTER_DROPPING = 256 * 1024;

let collector: (() => void) | null | undefined;
let scheduled = false;

function fullCollection(): (() => void) | null {
  if (collector === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      collector = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      collector = null;
    }
  }
  return collector;
}

/** The language service dropped analyses of `source` characters: collect once the current work is done. */
export function analysesDropped(source: number): void {
  if (source < COLLECT_AFTER_DROPPING || scheduled) return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    fullCollection()?.();
  }, 0);
}
