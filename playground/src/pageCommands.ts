/**
 * The page's commands, in one place: each is an editor action, so F1's
 * command palette lists it with its key, and the keys that must work
 * wherever the focus is (Ctrl/Cmd+S, the font size, F1, Ctrl+G) are also
 * handled by the page before the browser acts on them (its save dialog,
 * its zoom).
 */
import type { PlaygroundApp } from './app.js';
import { toast } from './app.js';
import type { DebuggerHandle } from './debugControls.js';
import { downloadSpb } from './download.js';
import { monaco } from './editor/monaco.js';
import type { WorldPanel } from './panels/worldPanel.js';
import type { ViewControls } from './viewControls.js';

interface Command {
  readonly id: string;
  readonly label: string;
  readonly keys?: number[];
  run(): void;
}

export function setUpCommands(app: PlaygroundApp, view: ViewControls, world: WorldPanel, debug: DebuggerHandle): void {
  const { KeyMod, KeyCode } = monaco;
  const click = (id: string) => () => document.getElementById(id)?.click();
  const commands: Command[] = [
    { id: 'cantrip.cast', label: 'Cantrip: Cast the spell', keys: [KeyMod.CtrlCmd | KeyCode.Enter], run: () => app.cast() },
    { id: 'cantrip.run', label: 'Cantrip: Run the script', run: () => app.run() },
    { id: 'cantrip.save', label: 'Cantrip: Save (in this browser)', keys: [KeyMod.CtrlCmd | KeyCode.KeyS], run: () => save(app) },
    { id: 'cantrip.share', label: 'Cantrip: Share a link', run: () => void app.share() },
    { id: 'cantrip.downloadSpb', label: 'Cantrip: Download the bytecode (.spb)', run: () => downloadBytecode(app) },
    { id: 'cantrip.toggleTheme', label: 'View: Toggle light / dark theme', run: () => view.toggleTheme() },
    { id: 'cantrip.fontLarger', label: 'View: Larger font', keys: [KeyMod.CtrlCmd | KeyCode.Equal], run: () => view.zoomFont(+1) },
    { id: 'cantrip.fontSmaller', label: 'View: Smaller font', keys: [KeyMod.CtrlCmd | KeyCode.Minus], run: () => view.zoomFont(-1) },
    { id: 'cantrip.fontReset', label: 'View: Reset font size', keys: [KeyMod.CtrlCmd | KeyCode.Digit0], run: () => view.zoomFont(0) },
    { id: 'cantrip.play', label: 'World: Play', run: click('world-play') },
    { id: 'cantrip.pause', label: 'World: Pause', run: () => world.pause() },
    { id: 'cantrip.step', label: 'World: Step one tick', run: click('world-step') },
    { id: 'cantrip.reset', label: 'World: Reset', run: click('world-reset') },
    { id: 'cantrip.continue', label: 'Debug: Continue (F5)', run: () => debug.session.continue() },
    { id: 'cantrip.stepOver', label: 'Debug: Step over (F10)', run: () => debug.session.stepOver() },
    { id: 'cantrip.stepInto', label: 'Debug: Step into (F11)', run: () => debug.stepIntoOrStart() },
    { id: 'cantrip.stepOut', label: 'Debug: Step out (Shift+F11)', run: () => debug.session.stepOut() },
    { id: 'cantrip.stop', label: 'Debug: Stop', run: () => debug.session.stop() },
    { id: 'cantrip.clearConsole', label: 'Console: Clear', run: () => app.console.clear() },
  ];
  const editor = app.editor.editor;
  for (const c of commands) editor.addAction({ id: c.id, label: c.label, keybindings: c.keys, run: () => c.run() });

  const byKey = (e: KeyboardEvent): (() => void) | null => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's') return () => save(app);
    if (mod && !e.altKey && (e.key === '=' || e.key === '+')) return () => view.zoomFont(+1);
    if (mod && !e.altKey && (e.key === '-' || e.key === '_')) return () => view.zoomFont(-1);
    if (mod && !e.altKey && !e.shiftKey && e.key === '0') return () => view.zoomFont(0);
    // In the editor Monaco opens these itself; elsewhere the page brings the editor's palette / go-to-line up.
    if (!editor.hasTextFocus() && e.key === 'F1' && !mod) return () => runEditorAction(app, 'editor.action.quickCommand');
    if (!editor.hasTextFocus() && mod && !e.shiftKey && e.key.toLowerCase() === 'g') return () => runEditorAction(app, 'editor.action.gotoLine');
    return null;
  };
  window.addEventListener(
    'keydown',
    (e) => {
      const action = byKey(e);
      if (!action) return;
      e.preventDefault();
      e.stopPropagation();
      action();
    },
    true,
  );
  document.getElementById('download-spb')?.addEventListener('click', () => downloadBytecode(app));
}

function runEditorAction(app: PlaygroundApp, id: string): void {
  app.editor.showTab('spell');
  app.editor.editor.focus();
  void app.editor.editor.getAction(id)?.run();
}

/** Ctrl/Cmd+S: the page saves (autosave now, and the shared address if there is one), not the browser's dialog. */
function save(app: PlaygroundApp): void {
  app.saveNow();
  toast('Saved in this browser: the page reopens with this text.');
}

function downloadBytecode(app: PlaygroundApp): void {
  app.startup.flush();
  const module = app.outcome.module;
  if (!module) {
    app.console.error('Cannot download the bytecode: the spell has compile errors.');
    return;
  }
  const file = downloadSpb(module, app.selectedSpell() ?? module.spells[0]?.name ?? null);
  app.console.info(`Downloaded ${file} (run it with: npx cantrip run ${file}).`);
}
