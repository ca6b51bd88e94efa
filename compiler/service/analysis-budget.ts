/**
 * How much analysis the language service keeps. An analysis (tokens, tree,
 * scopes, module) takes about 170 times its source in memory: a 1 MB file's
 * is ~170 MB, so an editor with a few dozen large files open would run out.
 * The analyses kept are bounded by the total size of their sources; past it
 * the least recently used go (their text stays with the editor, and a
 * request about one analyses it again). The newest is always kept, so a
 * file over the budget on its own is still analysed.
 *
 * One budget may serve several LanguageServices (the language server has
 * one per project): the bound is on all of them together.
 */

/** The default: a few large files' analyses (~350 MB), any number of small ones. */
export const DEFAULT_ANALYSED_SOURCE_BUDGET = 2 << 20;

export class AnalysisBudget {
  /** Least recently used first (a Map keeps insertion order). */
  private readonly kept = new Map<object, { size: number; drop: () => void }>();
  private total = 0;

  /**
   * `maxSource`: in characters of source; an editor may set it (the
   * language server's `analysisCacheMB`). `dropped` is told how much source
   * the analyses just dropped had (the server then has the garbage
   * collected: see bin/lsp/memory.ts).
   */
  constructor(
    public maxSource = DEFAULT_ANALYSED_SOURCE_BUDGET,
    private readonly dropped?: (source: number) => void,
  ) {}

  /** The size of the sources whose analyses are kept. */
  get keptSource(): number {
    return this.total;
  }

  /** `key`'s analysis (of `size` characters) is in use: it becomes the newest; older ones past the budget are dropped. */
  use(key: object, size: number, drop: () => void): void {
    this.forget(key);
    this.kept.set(key, { size, drop });
    this.total += size;
    let droppedSource = 0;
    for (const [oldKey, old] of this.kept) {
      if (this.total <= this.maxSource || oldKey === key) break;
      this.kept.delete(oldKey);
      this.total -= old.size;
      droppedSource += old.size;
      old.drop();
    }
    if (droppedSource > 0) this.dropped?.(droppedSource);
  }

  /** `key`'s analysis was dropped by its owner. */
  forget(key: object): void {
    const entry = this.kept.get(key);
    if (entry === undefined) return;
    this.kept.delete(key);
    this.total -= entry.size;
  }
}
