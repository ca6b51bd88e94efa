/**
 * Entry point. Installs the last-resort error handlers first, so nothing that
 * goes wrong later can leave a blank page without a message.
 *
 * The page starts in two chunks. This one opens the editor (Monaco and the
 * Cantrip highlighting: openEditor.ts), and the page is ready — it takes
 * input. The compiler, runtime and VM come in a second chunk
 * (startPlayground.ts), requested before the editor is made, so it downloads
 * and parses while the editor starts, and wired as soon as it arrives.
 */
import './styles.css';
import type { PlaygroundApp } from './app.js';
import { errorMessage } from './errorMessage.js';
import { openEditor } from './openEditor.js';

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

const toolchain = import('./startPlayground.js');
try {
  const opened = openEditor(document.getElementById('editor')!);
  toolchain.then(
    ({ startPlayground }) => {
      try {
        app = startPlayground(opened);
      } catch (e) {
        showFatal(errorMessage(e));
      }
    },
    (e: unknown) => showFatal(`The compiler could not be loaded (${errorMessage(e)}): reload the page.`),
  );
} catch (e) {
  showFatal(errorMessage(e));
}
