/**
 * `window.cantrip`: a small read-mostly API the end-to-end tests and the
 * benchmarks use to observe the page (markers, bytecode, console, entities)
 * without scraping Monaco's DOM.
 */
import type { PlaygroundApp } from './app.js';
import type { PlaygroundSession } from './session.js';

export interface DebugMarker {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly owner: string;
}

export interface CantripDebugHook {
  ready: boolean;
  source(): string;
  setSource(text: string): void;
  markers(): DebugMarker[];
  breedsMarkers(): DebugMarker[];
  bytecode(): string;
  console(): { kind: string; text: string; line: number | null }[];
  compileCount(): number;
  /** Compile now and time compile + markers + bytecode panel (ms). */
  recompileTimed(): number;
  share(): Promise<string>;
}

declare global {
  interface Window {
    cantrip?: CantripDebugHook;
  }
}

export function installDebugHook(app: PlaygroundApp, _session: PlaygroundSession): CantripDebugHook {
  const severity = (s: number): DebugMarker['severity'] => (s >= 8 ? 'error' : s >= 4 ? 'warning' : 'info');
  const hook: CantripDebugHook = {
    ready: true,
    source: () => app.editor.source,
    setSource: (text) => app.editor.setSource(text),
    markers: () =>
      app.editor.spellMarkers().map((m) => ({ severity: severity(m.severity), message: m.message, line: m.startLineNumber, column: m.startColumn, owner: m.owner })),
    breedsMarkers: () =>
      app.editor.breedsMarkers().map((m) => ({ severity: severity(m.severity), message: m.message, line: m.startLineNumber, column: m.startColumn, owner: m.owner })),
    bytecode: () => app.bytecode.text(),
    console: () => {
      app.console.flush();
      return app.console.snapshot().map((e) => ({ kind: e.kind, text: e.text, line: e.line }));
    },
    compileCount: () => app.compileCount,
    recompileTimed: () => {
      const t0 = performance.now();
      app.recompileNow();
      return performance.now() - t0;
    },
    share: () => app.share(),
  };
  window.cantrip = hook;
  return hook;
}
