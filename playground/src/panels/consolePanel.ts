/**
 * The console: print output, world events, runtime errors. Entries are
 * buffered and drawn once per frame, so a spell printing in a tight loop
 * cannot flood the DOM; only the newest entries are kept.
 */

export type ConsoleKind = 'out' | 'info' | 'event' | 'error' | 'warning';

export interface ConsoleEntry {
  readonly kind: ConsoleKind;
  readonly text: string;
  /** Source line an error points at; clicking the entry jumps there. */
  readonly line: number | null;
}

const MAX_ENTRIES = 500;
/** Per burst (one run or tick), so a print loop does not grow memory without bound. */
const MAX_PENDING = 2000;

export class ConsolePanel {
  private readonly entries: ConsoleEntry[] = [];
  private pending: ConsoleEntry[] = [];
  private dropped = 0;
  private scheduled = false;

  constructor(
    private readonly element: HTMLElement,
    private readonly onJumpToLine: (line: number, text: string) => void,
  ) {
    element.addEventListener('click', (e) => {
      const target = (e.target as HTMLElement).closest<HTMLElement>('.entry[data-line]');
      if (target) this.onJumpToLine(Number(target.dataset.line), target.textContent ?? '');
    });
  }

  print(text: string): void {
    this.add({ kind: 'out', text, line: null });
  }

  info(text: string): void {
    this.add({ kind: 'info', text, line: null });
  }

  event(text: string): void {
    this.add({ kind: 'event', text, line: null });
  }

  warning(text: string, line: number | null = null): void {
    this.add({ kind: 'warning', text, line });
  }

  error(text: string, line: number | null = null): void {
    this.add({ kind: 'error', text, line });
  }

  clear(): void {
    this.entries.length = 0;
    this.pending = [];
    this.dropped = 0;
    this.element.replaceChildren();
  }

  /** Everything shown or about to be shown (for tests and the debug hook). */
  snapshot(): ConsoleEntry[] {
    return [...this.entries, ...this.pending];
  }

  private add(entry: ConsoleEntry): void {
    if (this.pending.length >= MAX_PENDING) {
      this.dropped++;
    } else {
      this.pending.push(entry);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => this.flush());
  }

  /** Draw pending entries now (also called before tests read the DOM). */
  flush(): void {
    this.scheduled = false;
    if (this.dropped > 0) {
      this.pending.push({ kind: 'info', text: `… ${this.dropped} more lines not shown`, line: null });
      this.dropped = 0;
    }
    if (this.pending.length === 0) return;
    const fresh = this.pending.slice(-MAX_ENTRIES);
    this.pending = [];
    const fragment = document.createDocumentFragment();
    for (const entry of fresh) fragment.append(this.render(entry));
    this.element.append(fragment);
    this.entries.push(...fresh);
    const excess = this.entries.length - MAX_ENTRIES;
    if (excess > 0) {
      this.entries.splice(0, excess);
      for (let i = 0; i < excess && this.element.firstChild; i++) this.element.firstChild.remove();
    }
    this.element.scrollTop = this.element.scrollHeight;
  }

  private render(entry: ConsoleEntry): HTMLElement {
    const div = document.createElement('div');
    div.className = `entry ${entry.kind}`;
    div.textContent = entry.text;
    if (entry.line !== null) {
      div.dataset.line = String(entry.line);
      div.classList.add('clickable');
      div.title = `Go to line ${entry.line}`;
    }
    return div;
  }
}
