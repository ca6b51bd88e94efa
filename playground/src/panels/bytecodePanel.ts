/**
 * The live disassembly beside the source. Each instruction row carries the
 * colour of the source line that produced it; hovering or clicking a row
 * highlights that line in the editor, and the editor highlights rows here
 * (Compiler Explorer's linking).
 *
 * A 1,000-line spell produces thousands of rows, so the list is virtual: only
 * the rows in view exist in the DOM, and a recompile costs the same whatever
 * the spell's length.
 */
import type { Module } from '../../../vm/module.js';
import { LineInstructionMap, buildListing, colourIndexForLine, instructionText, rowText, type ListingRow } from '../language/bytecodeMap.js';

export const PALETTE_SIZE = 8;
const ROW_HEIGHT = 17;
/** Rows drawn above and below the viewport, so fast scrolling shows no gaps. */
const OVERSCAN = 20;

export interface BytecodePanelEvents {
  onHoverLine(line: number | null): void;
  onClickLine(line: number): void;
}

export class BytecodePanel {
  private map = new LineInstructionMap([]);
  private module: Module | null = null;
  private linked = new Set<number>();
  private current: number | null = null;
  private readonly inner: HTMLDivElement;
  private frameRequested = false;

  constructor(
    private readonly element: HTMLElement,
    private readonly info: HTMLElement,
    private readonly events: BytecodePanelEvents,
  ) {
    this.inner = document.createElement('div');
    this.inner.className = 'bytecode-inner';
    element.replaceChildren(this.inner);
    element.addEventListener('scroll', () => this.requestRender());
    new ResizeObserver(() => this.requestRender()).observe(element);
    element.addEventListener('mouseover', (e) => this.events.onHoverLine(this.lineAt(e.target)));
    element.addEventListener('mouseleave', () => this.events.onHoverLine(null));
    element.addEventListener('click', (e) => {
      const line = this.lineAt(e.target);
      if (line !== null) this.events.onClickLine(line);
    });
  }

  get lineMap(): LineInstructionMap {
    return this.map;
  }

  /** Show a fresh module; `null` keeps the last listing, dimmed, while the source has errors. */
  show(module: Module | null): void {
    if (module === null) {
      this.element.classList.toggle('stale', this.map.rows.length > 0);
      this.info.textContent = this.map.rows.length > 0 ? 'stale: the source has errors' : 'the source has errors';
      if (this.map.rows.length === 0) this.inner.innerHTML = '<div class="empty">Fix the errors to see the bytecode.</div>';
      return;
    }
    this.element.classList.remove('stale');
    const rows = buildListing(module);
    this.module = module;
    this.map = new LineInstructionMap(rows);
    this.linked.clear();
    this.current = null;
    this.inner.style.height = `${rows.length * ROW_HEIGHT + 8}px`;
    this.render();
    const count = rows.length - module.functions.length;
    this.info.textContent = `${count} instructions · ${module.functions.length} functions`;
  }

  /** Rows of `line` get the linked highlight (editor hover/cursor). */
  highlightLine(line: number | null, reveal = false): void {
    this.linked = new Set(line === null ? [] : this.map.rowsForLine(line));
    if (reveal && this.linked.size > 0) this.revealRow(Math.min(...this.linked));
    this.requestRender();
  }

  /** The debugger's current instruction. */
  setCurrent(functionIndex: number | null, offset: number | null): void {
    this.current = functionIndex === null || offset === null ? null : this.map.rowFor(functionIndex, offset);
    if (this.current !== null) this.revealRow(this.current);
    this.requestRender();
  }

  /** The listing as text (debug hook, tests). */
  text(): string {
    const module = this.module;
    return module ? this.map.rows.map((r) => rowText(module, r)).join('\n') : '';
  }

  private revealRow(index: number): void {
    const top = index * ROW_HEIGHT;
    const view = this.element;
    if (top < view.scrollTop || top + ROW_HEIGHT > view.scrollTop + view.clientHeight) {
      view.scrollTop = Math.max(0, top - view.clientHeight / 3);
    }
  }

  private lineAt(target: EventTarget | null): number | null {
    const row = (target as HTMLElement | null)?.closest?.<HTMLElement>('.row[data-row]');
    return row ? this.map.lineForRow(Number(row.dataset.row)) : null;
  }

  private requestRender(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.render();
    });
  }

  /** Draw the rows in view (one innerHTML write). */
  private render(): void {
    const rows = this.map.rows;
    if (rows.length === 0) return;
    const first = Math.max(0, Math.floor(this.element.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const visible = Math.ceil((this.element.clientHeight || 600) / ROW_HEIGHT);
    const last = Math.min(rows.length, first + visible + 2 * OVERSCAN);
    const html: string[] = [];
    for (let i = first; i < last; i++) html.push(this.rowHtml(rows, i));
    this.inner.innerHTML = html.join('');
  }

  private rowHtml(rows: readonly ListingRow[], i: number): string {
    const row = rows[i]!;
    const top = `style="top:${i * ROW_HEIGHT}px"`;
    if (row.kind === 'header') return `<div class="row header" ${top}>${escapeHtml(row.text)}</div>`;
    const previous = rows[i - 1];
    const sameLine = previous !== undefined && previous.kind === 'instruction' && previous.line === row.line;
    const classes = ['row', `lc${colourIndexForLine(row.line, PALETTE_SIZE)}`];
    if (this.linked.has(i)) classes.push('linked');
    if (this.current === i) classes.push('current');
    return (
      `<div class="${classes.join(' ')}" data-row="${i}" ${top} title="line ${row.line}">` +
      `<span class="off">${String(row.offset).padStart(4, '0')}</span><span class="line">${sameLine ? '|' : row.line}</span>${escapeHtml(this.module ? instructionText(this.module, row) : row.opcode)}</div>`
    );
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
