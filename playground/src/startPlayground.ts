/**
 * The rest of the page, loaded as a chunk of its own once the editor is up
 * (main.ts): the compiler, the runtime, the VM and its compiled tier, and
 * everything that uses them — the compile loop, the world, the debugger,
 * the toolbar commands and the test hook. It takes over the editor
 * openEditor.ts made.
 */
import { PlaygroundApp } from './app.js';
import { installDebugHook } from './debugHook.js';
import { PlaygroundSession } from './session.js';
import { setUpWorld } from './worldControls.js';
import { setUpDebugger } from './debugControls.js';
import { ViewControls } from './viewControls.js';
import { setUpCommands } from './pageCommands.js';
import { ResizablePanes } from './panes.js';
import type { OpenedEditor } from './openEditor.js';

export function startPlayground(opened: OpenedEditor): PlaygroundApp {
  const session = new PlaygroundSession();
  const app = new PlaygroundApp(session, opened);
  session.attach({
    print: (text) => app.console.print(text),
    info: (text) => app.console.info(text),
    event: (text) => app.console.event(text),
    runtimeError: (text, line) => app.reportRuntimeError(text, line),
  });
  const world = setUpWorld(app, session);
  const debug = setUpDebugger(app, session, world);
  const view = new ViewControls(app, world);
  setUpCommands(app, view, world, debug);
  new ResizablePanes(document.querySelector<HTMLElement>('.layout')!);
  // The hook (window.cantrip, `ready: true`) appears once the page has finished starting — the breeds checked, the
  // first compile, the world built (startup tasks, queued before this one) — so a script that waits for `ready` finds
  // the spell menu, Cast and the world as a person would; `readyAt` stays the moment the editor took input.
  app.startup.later(() => installDebugHook(app, session, world, debug, view, opened.readyAt));
  return app;
}
