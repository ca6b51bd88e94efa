/**
 * `window.cantrip`: a small read-mostly API the end-to-end tests and the
 * benchmarks use to observe the page (markers, bytecode, console, entities)
 * without scraping Monaco's DOM.
 */
import type { PlaygroundApp } from './app.js';
import type { PlaygroundSession } from './session.js';
import type { WorldPanel } from './panels/worldPanel.js';
import type { DebuggerHandle } from './debugControls.js';
import type { ViewControls } from './viewControls.js';
import type { CantripDebugHook, DebugMarker } from './hookTypes.js';
import { monaco } from './editor/monaco.js';
import { shareUrl } from './language/urlState.js';

/** `readyAt`: when the editor took input (openEditor.ts); the hook itself appears once the compiler has loaded and the page is wired. */
export function installDebugHook(app: PlaygroundApp, session: PlaygroundSession, world: WorldPanel, debug: DebuggerHandle, view: ViewControls, readyAt: number): CantripDebugHook {
  const severity = (s: number): DebugMarker['severity'] => (s >= 8 ? 'error' : s >= 4 ? 'warning' : 'info');
  const hook: CantripDebugHook = {
    ready: true,
    readyAt,
    wiredAt: performance.now(),
    source: () => app.editor.source,
    setSource: (text) => app.editor.setSource(text),
    setBreeds: (text) => app.editor.setBreeds(text),
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
      const timing = app.recompileNow();
      return { total: timing.total, compile: timing.compile };
    },
    typeAt: (line, text) => app.editor.insertAt(line, text),
    share: () => app.share(),
    entities: () => session.world.entities().map((e) => ({ id: e.id, breed: e.breed, x: e.x, y: e.y, health: e.health, maxHealth: e.maxHealth })),
    screenPosition: (id) => world.screenPosition(id),
    selection: () => ({ caster: world.caster, target: world.target }),
    worldTime: () => session.world.world?.time ?? 0,
    benchWorld: (entities, frames) => world.benchmark(entities, frames),
    debugState: () => {
      const view = debug.view();
      const top = view.frames[0];
      return { state: view.state, line: top?.line ?? null, frames: view.frames.map((f) => ({ name: f.functionName, line: f.line, locals: f.locals.map((l) => ({ ...l })) })) };
    },
    breakpoints: () => app.editor.breakpointLines,
    inspector: () => world.inspector.text(),
    framesDrawn: () => world.framesDrawn,
    view: () => ({ ...view.current }),
    linkFor: (source) => shareUrl(location.href, { source, breeds: app.editor.breeds }),
    editorFontSize: () => app.editor.editor.getOption(monaco.editor.EditorOption.fontSize),
    cursor: () => {
      const position = app.editor.editor.getPosition();
      return { tab: app.editor.activeTab, line: position?.lineNumber ?? 1, column: position?.column ?? 1 };
    },
  };
  // The page is ready when the editor takes input; the rest of its start-up (the first compile, the
  // world) follows when idle. Whatever the hook reads or does finishes it first, so a reader sees the
  // page as a user who waited a moment would.
  for (const [name, value] of Object.entries(hook)) {
    if (typeof value === 'function') (hook as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => (app.startup.flush(), (value as (...a: unknown[]) => unknown)(...args));
  }
  window.cantrip = hook;
  return hook;
}
