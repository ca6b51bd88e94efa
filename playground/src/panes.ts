/**
 * Resizable panes: drag the lines between the editor, the bytecode and the
 * world (and the one above the console) to give a pane more room; a double
 * click on a line restores the default. Sizes are fractions of the window
 * (so they survive a resize) and are kept in this browser.
 */

const STORAGE_KEY = 'cantrip.playground.panes.v1';
const HANDLE = 6;
const MIN_COLUMN = [220, 160, 240] as const;
const MIN_TOP = 160;
const MIN_BOTTOM = 90;

interface PaneSizes {
  /** Column widths as fractions (they sum to 1). */
  columns: [number, number, number];
  /** Bottom row height in px. */
  bottom: number;
}

const DEFAULT_SIZES: PaneSizes = { columns: [1.1 / 3.1, 0.85 / 3.1, 1.15 / 3.1], bottom: 230 };

function loadSizes(): PaneSizes | null {
  try {
    const data = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<PaneSizes> | null;
    const c = data?.columns;
    if (!Array.isArray(c) || c.length !== 3 || !c.every((x) => typeof x === 'number' && x > 0.05 && x < 0.9)) return null;
    const bottom = typeof data?.bottom === 'number' && Number.isFinite(data.bottom) ? data.bottom : DEFAULT_SIZES.bottom;
    return { columns: [c[0]!, c[1]!, c[2]!], bottom };
  } catch {
    return null;
  }
}

export class ResizablePanes {
  private sizes: PaneSizes | null = loadSizes();
  private readonly handles: HTMLDivElement[];

  constructor(private readonly layout: HTMLElement) {
    this.handles = [this.handle('col', 0), this.handle('col', 1), this.handle('row', 0)];
    new ResizeObserver(() => this.placeHandles()).observe(layout);
    this.apply();
  }

  private handle(kind: 'col' | 'row', index: number): HTMLDivElement {
    const el = document.createElement('div');
    el.className = `splitter splitter-${kind}`;
    el.dataset.splitter = `${kind}${index}`;
    el.title = kind === 'col' ? 'Drag to resize the panes (double-click: default sizes)' : 'Drag to resize the console (double-click: default size)';
    el.addEventListener('pointerdown', (e) => this.drag(e, kind, index));
    el.addEventListener('dblclick', () => this.reset());
    this.layout.append(el);
    return el;
  }

  private drag(start: PointerEvent, kind: 'col' | 'row', index: number): void {
    start.preventDefault();
    const handle = start.currentTarget as HTMLElement;
    handle.setPointerCapture(start.pointerId);
    document.body.classList.add(kind === 'col' ? 'resizing-col' : 'resizing-row');
    const box = this.layout.getBoundingClientRect();
    const widths = this.columnWidths();
    const move = (e: PointerEvent): void => {
      if (kind === 'row') {
        const bottom = Math.max(MIN_BOTTOM, Math.min(box.height - MIN_TOP, box.bottom - e.clientY));
        this.sizes = { columns: this.sizes?.columns ?? this.currentFractions(), bottom };
      } else {
        const w = [...widths] as [number, number, number];
        const left = index === 0 ? 0 : w[0];
        const pair = w[index]! + w[index + 1]!;
        const edge = Math.max(MIN_COLUMN[index]!, Math.min(pair - MIN_COLUMN[index + 1]!, e.clientX - box.left - left));
        w[index] = edge;
        w[index + 1] = pair - edge;
        const total = w[0] + w[1] + w[2];
        this.sizes = { columns: [w[0] / total, w[1] / total, w[2] / total], bottom: this.sizes?.bottom ?? this.bottomHeight() };
      }
      this.apply();
    };
    const end = (): void => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
      document.body.classList.remove('resizing-col', 'resizing-row');
      this.save();
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  }

  reset(): void {
    this.sizes = null;
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Nothing to forget.
    }
    this.apply();
  }

  /** The current column widths in px. */
  columnWidths(): [number, number, number] {
    const panes = ['.editor-pane', '.bytecode-pane', '.world-pane'].map((s) => this.layout.querySelector<HTMLElement>(s)!.getBoundingClientRect().width);
    return [panes[0]!, panes[1]!, panes[2]!];
  }

  private currentFractions(): [number, number, number] {
    const w = this.columnWidths();
    const total = w[0] + w[1] + w[2];
    return [w[0] / total, w[1] / total, w[2] / total];
  }

  private bottomHeight(): number {
    return this.layout.querySelector<HTMLElement>('.console-pane')!.getBoundingClientRect().height;
  }

  private apply(): void {
    if (this.sizes === null) {
      this.layout.style.gridTemplateColumns = '';
      this.layout.style.gridTemplateRows = '';
    } else {
      const [a, b, c] = this.sizes.columns;
      this.layout.style.gridTemplateColumns = `minmax(${MIN_COLUMN[0]}px, ${a}fr) minmax(${MIN_COLUMN[1]}px, ${b}fr) minmax(${MIN_COLUMN[2]}px, ${c}fr)`;
      this.layout.style.gridTemplateRows = `minmax(0, 1fr) ${Math.round(this.sizes.bottom)}px`;
    }
    this.placeHandles();
  }

  private placeHandles(): void {
    const box = this.layout.getBoundingClientRect();
    const rect = (s: string) => this.layout.querySelector<HTMLElement>(s)!.getBoundingClientRect();
    const editor = rect('.editor-pane');
    const bytecode = rect('.bytecode-pane');
    const console = rect('.console-pane');
    const [c0, c1, r0] = this.handles as [HTMLDivElement, HTMLDivElement, HTMLDivElement];
    place(c0, editor.right - box.left - HANDLE / 2, 0, HANDLE, editor.bottom - box.top);
    place(c1, bytecode.right - box.left - HANDLE / 2, 0, HANDLE, box.height);
    place(r0, 0, console.top - box.top - HANDLE / 2, box.width, HANDLE);
  }

  private save(): void {
    if (this.sizes === null) return;
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(this.sizes));
    } catch {
      // Best effort.
    }
  }
}

function place(el: HTMLElement, left: number, top: number, width: number, height: number): void {
  el.style.left = `${left}px`;
  el.style.top = `${top}px`;
  el.style.width = `${width}px`;
  el.style.height = `${height}px`;
}
