/**
 * The shape of \`window.cantrip\`, the page's test and benchmark hook. No
 * imports, so Node-side code (e2e tests, benchmarks) can share the types
 * without pulling the page into its build.
 */

export interface DebugMarker {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly owner: string;
}

export interface CantripDebugHook {
  ready: boolean;
  /**
   * performance.now() when the page became interactive — the editor takes input (navigation
   * start = 0; the first chunk, openEditor.ts, before the compiler's chunk has arrived). The rest of the start-up (first compile, world) follows when idle; every function
   * of this hook finishes it first, so what they read is never a half-started page.
   */
  readyAt: number;
  /**
   * performance.now() when the compiler, runtime and VM had loaded (a second chunk, requested
   * before the editor was made), the page was wired and its start-up tasks (breeds, first compile,
   * world) were done: this hook appears then, `ready` true.
   */
  wiredAt: number;
  source(): string;
  setSource(text: string): void;
  setBreeds(text: string): void;
  markers(): DebugMarker[];
  breedsMarkers(): DebugMarker[];
  bytecode(): string;
  console(): { kind: string; text: string; line: number | null }[];
  compileCount(): number;
  /** Compile now; times (ms) of compile + markers alone and with the bytecode panel. */
  recompileTimed(): { total: number; compile: number };
  /** Insert text at the start of a line, as a keystroke would. */
  typeAt(line: number, text: string): void;
  /** World panel benchmark: tick and render times (ms) per frame with `entities` entities. */
  benchWorld?: (entities: number, frames: number) => { tick: number[]; render: number[] } | null;
  share(): Promise<string>;
  entities(): { id: number; breed: string; x: number; y: number; health: number; maxHealth: number }[];
  /** Where an entity is drawn, in CSS pixels inside the world canvas. */
  screenPosition(id: number): { x: number; y: number } | null;
  selection(): { caster: number | null; target: number | null };
  worldTime(): number;
  debugState(): {
    state: 'idle' | 'paused' | 'running' | 'waiting';
    line: number | null;
    frames: { name: string; line: number; locals: { name: string; value: string }[] }[];
  };
  breakpoints(): number[];
  /** The entity inspector's text while it shows (an entity is hovered), else null. */
  inspector(): string | null;
  /** Canvas frames drawn since the page loaded (an idle page draws none). */
  framesDrawn(): number;
  /** The view settings: theme and code font size. */
  view(): { theme: 'dark' | 'light'; fontSize: number };
  editorFontSize(): number;
  /** A share link for this page holding `source` (and the current breeds). */
  linkFor(source: string): string;
  /** Which editor tab shows and where the cursor is. */
  cursor(): { tab: 'spell' | 'breeds'; line: number; column: number };
}

declare global {
  interface Window {
    cantrip?: CantripDebugHook;
  }
}
