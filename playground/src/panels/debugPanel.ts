/**
 * The debugger panel: Continue / Step over / Step into / Stop, the call
 * stack (innermost first; click a frame to see its locals and line) and the
 * locals of the selected frame.
 */
import type { DebugView } from '../debug/debugSession.js';

export interface DebugPanelEvents {
  onContinue(): void;
  onStepOver(): void;
  onStepInto(): void;
  onStepOut(): void;
  onStop(): void;
  onSelectFrame(line: number, functionIndex: number, pc: number): void;
}

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
}

export class DebugPanel {
  private view: DebugView = { state: 'idle', spell: null, frames: [], wakeAt: null };
  private selected = 0;
  private readonly stack = byId<HTMLOListElement>('callstack');
  private readonly locals = byId<HTMLTableElement>('locals');
  private readonly buttons = {
    continue: byId<HTMLButtonElement>('dbg-continue'),
    over: byId<HTMLButtonElement>('dbg-over'),
    into: byId<HTMLButtonElement>('dbg-into'),
    out: byId<HTMLButtonElement>('dbg-out'),
    stop: byId<HTMLButtonElement>('dbg-stop'),
  };

  constructor(private readonly events: DebugPanelEvents) {
    this.buttons.continue.addEventListener('click', () => events.onContinue());
    this.buttons.over.addEventListener('click', () => events.onStepOver());
    this.buttons.into.addEventListener('click', () => events.onStepInto());
    this.buttons.out.addEventListener('click', () => events.onStepOut());
    this.buttons.stop.addEventListener('click', () => events.onStop());
    this.stack.addEventListener('click', (e) => {
      const li = (e.target as HTMLElement).closest<HTMLLIElement>('li[data-frame]');
      if (!li) return;
      this.selected = Number(li.dataset.frame);
      this.render();
      const frame = this.view.frames[this.selected];
      if (frame) events.onSelectFrame(frame.line, frame.functionIndex, frame.pc);
    });
    this.render();
  }

  get state(): DebugView['state'] {
    return this.view.state;
  }

  show(view: DebugView): void {
    this.view = view;
    this.selected = 0;
    this.render();
  }

  private render(): void {
    const { state, frames } = this.view;
    const paused = state === 'paused';
    this.buttons.continue.disabled = !paused;
    this.buttons.over.disabled = !paused;
    this.buttons.out.disabled = !paused;
    // Step into also starts a cast paused at its first line.
    this.buttons.into.disabled = state === 'waiting' || state === 'running';
    this.buttons.stop.disabled = state === 'idle';
    this.stack.replaceChildren();
    if (state === 'idle') {
      this.stack.append(note('Not debugging. Set a breakpoint in the gutter and Cast, or press Step into.'));
    } else if (state === 'waiting') {
      this.stack.append(note(`${this.view.spell} waits until t=${this.view.wakeAt?.toFixed(2)}s (Play / Step tick).`));
    }
    frames.forEach((f, i) => {
      const li = document.createElement('li');
      li.dataset.frame = String(i);
      li.textContent = `${f.functionName === '' ? 'script' : f.functionName + '()'}  line ${f.line}`;
      if (i === this.selected) li.classList.add('top');
      this.stack.append(li);
    });
    this.locals.replaceChildren();
    const frame = frames[this.selected];
    if (frame) {
      if (frame.locals.length === 0) this.locals.append(row('(no locals)', ''));
      for (const local of frame.locals) this.locals.append(row(local.name, local.value));
    }
  }
}

function note(text: string): HTMLElement {
  const li = document.createElement('li');
  li.className = 'muted';
  li.style.listStyle = 'none';
  li.textContent = text;
  return li;
}

function row(name: string, value: string): HTMLTableRowElement {
  const tr = document.createElement('tr');
  const a = document.createElement('td');
  a.textContent = name;
  const b = document.createElement('td');
  b.textContent = value;
  tr.append(a, b);
  return tr;
}
