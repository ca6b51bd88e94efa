/**
 * Entry point. Installs the last-resort error handlers first, so nothing that
 * goes wrong later can leave a blank page without a message.
 */
import './styles.css';
import { PlaygroundApp } from './app.js';
import { installDebugHook } from './debugHook.js';
import { errorMessage } from './engine.js';
import { PlaygroundSession } from './session.js';
import { setUpWorld } from './worldControls.js';
import { setUpDebugger } from './debugControls.js';
import { ViewControls } from './viewControls.js';
import { setUpCommands } from './pageCommands.js';
import { ResizablePanes } from './panes.js';

function showFatal(message: string): void {
  const box = document.getElementById('console') ?? document.body;
  const div = document.createElement('div');
  div.className = 'entry error';
  div.textContent = `Internal error: ${message}`;
  box.append(div);
}

let app: PlaygroundApp | null = null;

window.addEventListener('error', (e) => {
  const message = e.error instanceof Error ? e.error.message : e.message;
  if (app) app.console.error(`Internal error: ${message}`);
  else showFatal(message);
  e.preventDefault();
});
window.addEventListener('unhandledrejection', (e) => {
  const message = errorMessage(e.reason);
  if (app) app.console.error(`Internal error: ${message}`);
  else showFatal(message);
  e.preventDefault();
});

try {
  const session = new PlaygroundSession();
  app = new PlaygroundApp(session);
  const a = app;
  session.attach({
    print: (text) => a.console.print(text),
    info: (text) => a.console.info(text),
    event: (text) => a.console.event(text),
    runtimeError: (text, line) => a.reportRuntimeError(text, line),
  });
  const world = setUpWorld(a, session);
  const debug = setUpDebugger(a, session, world);
  const view = new ViewControls(a, world);
  setUpCommands(a, view, world, debug);
  new ResizablePanes(document.querySelector<HTMLElement>('.layout')!);
  installDebugHook(a, session, world, debug, view);
} catch (e) {
  showFatal(errorMessage(e));
}
