/**
 * Wires the debugger: gutter breakpoints → the session, Cast through the
 * debugger while breakpoints are set, the panel's buttons and F5 / F10 /
 * F11 / Shift+F11 (anywhere on the page while a cast is paused), and the
 * current line and instruction in the editor and the bytecode.
 */
import type { PlaygroundApp } from './app.js';
import { DebugSession, type DebugView } from './debug/debugSession.js';
import { DebugPanel } from './panels/debugPanel.js';
import type { WorldPanel } from './panels/worldPanel.js';
import type { PlaygroundSession } from './session.js';

export interface DebuggerHandle {
  readonly session: DebugSession;
  view(): DebugView;
  /** Step into, or start the selected spell paused at its first line. */
  stepIntoOrStart(): void;
}

export function setUpDebugger(app: PlaygroundApp, session: PlaygroundSession, world: WorldPanel): DebuggerHandle {
  const enabled = document.getElementById('dbg-enable') as HTMLInputElement;
  let panel: DebugPanel | null = null;
  let last: DebugView = { state: 'idle', spell: null, frames: [], wakeAt: null };
  /** Set by Continue: reaching a breakpoint is news; a step's next line is not (the highlight shows it). */
  let continued = false;
  const show = (view: DebugView): void => {
    const announce = view.state === 'paused' && (last.state !== 'paused' || continued);
    continued = false;
    last = view;
    panel?.show(view);
    world.requestDraw();
    const top = view.frames[0];
    app.editor.setCurrentLine(top ? top.line : null);
    app.bytecode.setCurrent(top ? top.functionIndex : null, top ? top.pc : null);
    if (view.state === 'paused') {
      world.pause();
      if (top && announce) app.console.info(`Paused in ${top.functionName === '' ? 'script' : top.functionName + '()'} at line ${top.line}.`);
    }
  };
  const debug = new DebugSession(session.world, () => reporterOf(app), show, () => app.editor.breakpointLines);
  session.shouldDebug = () => enabled.checked && session.breakpoints.length > 0;
  session.debugCast = (spell, caster, target) => debug.start(spell, caster, target, 'run');
  session.onBreakpointsChange = () => debug.refreshBreakpoints();
  world.afterStep = () => debug.afterWorldStep();

  /**
   * The editor's text changed since the paused cast started: bring the world up to date first, instead
   * of stepping code the editor no longer shows. New code drops the old code's cast (and says so);
   * when only comments or blank lines changed the cast goes on, and the step is taken.
   */
  const onCurrentCode = (action: () => void) => (): void => {
    app.recompileNow();
    const module = app.lastGoodModule;
    if (debug.active && module && session.world.runningSource !== app.lastGoodSource) {
      session.syncWorld(app.lastGoodSource, module);
      if (!debug.active) return;
    }
    action();
  };
  const resume = onCurrentCode(() => {
    continued = true;
    debug.continue();
  });
  const stepOver = onCurrentCode(() => debug.stepOver());
  const stepOut = onCurrentCode(() => debug.stepOut());
  const stepInto = onCurrentCode(() => debug.stepInto());

  const stepIntoOrStart = (): void => {
    if (panel?.state === 'paused') {
      stepInto();
      return;
    }
    // Not debugging yet: cast the selected spell paused at its first line (once its target is picked, if it reads one).
    app.startup.flush();
    const blocker = app.castBlocker();
    if (blocker !== null) {
      app.console.info(blocker);
      return;
    }
    const module = app.lastGoodModule;
    const spell = app.selectedSpell();
    if (!module || spell === null || !session.syncWorld(app.lastGoodSource, module)) return;
    const { caster, target } = session.resolveSelection();
    debug.start(spell, caster, target, 'into');
  };
  panel = new DebugPanel({
    onContinue: resume,
    onStepOver: stepOver,
    onStepInto: stepIntoOrStart,
    onStepOut: stepOut,
    onStop: () => debug.stop(),
    onSelectFrame: (line, functionIndex, pc) => {
      app.editor.goToLine(line);
      app.bytecode.setCurrent(functionIndex, pc);
    },
  });
  const editor = app.editor.editor;
  // Page-wide, before Monaco or the browser see them: after clicking a debugger button the focus is
  // not in the editor, and F10 must still step. F5 / F11 keep their browser meaning (reload, full
  // screen) outside the editor unless a cast is paused.
  window.addEventListener(
    'keydown',
    (e) => {
      const paused = panel?.state === 'paused';
      const inEditor = editor.hasTextFocus();
      let action: (() => void) | null = null;
      if (e.key === 'F5' && (paused || inEditor)) action = resume;
      else if (e.key === 'F10' && paused) action = stepOver;
      else if (e.key === 'F11' && e.shiftKey && paused) action = stepOut;
      else if (e.key === 'F11' && !e.shiftKey && (paused || inEditor)) action = stepIntoOrStart;
      if (!action || e.ctrlKey || e.altKey || e.metaKey) return;
      e.preventDefault();
      e.stopPropagation();
      action();
    },
    true,
  );
  return { session: debug, view: () => last, stepIntoOrStart };
}

function reporterOf(app: PlaygroundApp) {
  return {
    print: (text: string) => app.console.print(text),
    info: (text: string) => app.console.info(text),
    event: (text: string) => app.console.event(text),
    runtimeError: (text: string, line: number | null) => app.reportRuntimeError(text, line),
  };
}
