/**
 * Whether a reloaded module is the same code as the one a paused cast runs,
 * only on other lines (a comment or a blank line added or removed), and if
 * so where each line went. Such an edit leaves the debugged cast's code as
 * the editor shows it, so the cast can go on: the debugger keeps running the
 * old module, and the lines it reports and the breakpoints it is given are
 * translated between the two.
 */
import type { Module } from '../../../vm/module.js';

export interface LineMoves {
  /** The editor's line of a line of the running (old) code. */
  toEditor(line: number): number;
  /** The old code's lines that a line of the editor's text now holds (none: no code there). */
  toCode(line: number): readonly number[];
}

const sameWords = (a: Int32Array, b: Int32Array) => a.length === b.length && a.every((w, i) => w === b[i]);
const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Same functions, code words, constants, globals and host imports: the modules run alike. */
export function sameCode(before: Module, after: Module): boolean {
  return (
    sameList(before.constants, after.constants) &&
    sameList(before.globals, after.globals) &&
    sameList(
      before.hostImports.map((h) => h.name),
      after.hostImports.map((h) => h.name),
    ) &&
    before.functions.length === after.functions.length &&
    before.functions.every((fn, i) => {
      const other = after.functions[i]!;
      return fn.name === other.name && fn.arity === other.arity && sameWords(fn.code, other.code);
    })
  );
}

/** Where the old module's lines went in the new one, or null when the code differs. */
export function lineMoves(before: Module, after: Module): LineMoves | null {
  if (!sameCode(before, after)) return null;
  const toEditor = new Map<number, number>();
  const toCode = new Map<number, number[]>();
  before.functions.forEach((fn, i) => {
    const moved = after.functions[i]!.lines;
    fn.lines.forEach((line, pc) => {
      const now = moved[pc]!;
      if (!toEditor.has(line)) toEditor.set(line, now);
      const olds = toCode.get(now) ?? [];
      if (!olds.includes(line)) olds.push(line);
      toCode.set(now, olds);
    });
  });
  return {
    toEditor: (line) => toEditor.get(line) ?? line,
    toCode: (line) => toCode.get(line) ?? [],
  };
}
