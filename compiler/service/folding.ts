/**
 * Folding ranges: every bracketed construct that spans lines (functions,
 * classes, blocks, list and map literals) and runs of line comments.
 */
import type * as A from '../ast.js';
import { walk } from '../ast-walk.js';
import type { SpellDocument } from './document.js';

export interface FoldingRange {
  /** 1-based lines: the fold shows `startLine` and hides what follows up to `endLine`. */
  readonly startLine: number;
  readonly endLine: number;
  readonly kind: 'region' | 'comment';
}

export function foldingRanges(doc: SpellDocument): FoldingRange[] {
  const ranges: FoldingRange[] = [];
  const fold = (loc: A.SourceSpan, closeLine = loc.endLine) => {
    // The closing bracket's line stays visible.
    if (closeLine - 1 > loc.line) ranges.push({ startLine: loc.line, endLine: closeLine - 1, kind: 'region' });
  };
  walk(doc.ast.body, {
    stmt(s) {
      if (s.kind === 'Function') fold(s.loc, s.closeLoc.line);
      else if (s.kind === 'Class' || s.kind === 'Block') fold(s.loc);
    },
    expr(e) {
      if (e.kind === 'List' || e.kind === 'Map') fold(e.loc);
    },
  });
  let run: { first: number; last: number } | null = null;
  const flush = () => {
    if (run && run.last > run.first) ranges.push({ startLine: run.first, endLine: run.last, kind: 'comment' });
  };
  for (const c of doc.compiled.lexed.comments) {
    const line = c.startLine ?? 1;
    if (run && line === run.last + 1) run.last = line;
    else {
      flush();
      run = { first: line, last: line };
    }
  }
  flush();
  return ranges.sort((a, b) => a.startLine - b.startLine);
}
