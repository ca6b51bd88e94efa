/**
 * The lines a cast can stop at: where the debugger puts a BREAK (the first
 * instruction of a source line, or a jump target: vm/debugger.ts's
 * lineStarts) in any function but the top-level script. The playground
 * debugs casts only — the script runs when the world loads the spells,
 * never under the debugger — so a breakpoint on a line of top-level code
 * (a header comment's `spell` line, the script's closing line at the end of
 * the file) is never hit, and the editor draws it hollow.
 */
import { lineStarts } from '../../../vm/debugger.js';
import type { Module } from '../../../vm/module.js';

export function breakableLines(module: Module): number[] {
  const lines = new Set<number>();
  module.functions.forEach((fn, index) => {
    if (index === 0) return;
    for (const pc of lineStarts(fn.code, fn.lines)) {
      const line = fn.lines[pc];
      if (line !== undefined && line > 0) lines.add(line);
    }
  });
  return [...lines].sort((a, b) => a - b);
}
