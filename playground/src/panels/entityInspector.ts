/**
 * The entity inspector: hovering an entity on the world canvas shows what
 * it is — breed and id, health, position, speed, interest — and what it
 * holds beyond that (its breed's attributes, the fields spells set on it),
 * next to it, updated while the world runs. Read-only, and out of the
 * pointer's way (it never takes the mouse from the canvas).
 */
import type { EntityField, EntityView } from '../../../runtime/world/world.js';
import { displayBounded } from '../../../vm/display.js';
import { escapeHtml } from '../html.js';

/** Longest value shown; longer ones are cut (the console and the debugger show them whole). */
const MAX_VALUE_CHARS = 60;

export class EntityInspector {
  private readonly element: HTMLDivElement;
  private shownHtml = '';

  constructor(private readonly host: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'entity-inspector';
    this.element.hidden = true;
    this.element.setAttribute('role', 'tooltip');
    host.append(this.element);
  }

  /** Show `entity` beside the screen point (x, y) — its centre, `radius` pixels across. */
  show(entity: EntityView, fields: readonly EntityField[], x: number, y: number, radius: number): void {
    const html = inspectorHtml(entity, fields);
    if (html !== this.shownHtml) {
      this.element.innerHTML = html;
      this.shownHtml = html;
    }
    this.element.hidden = false;
    // Right of the entity, or left of it when that would leave the canvas; kept inside it vertically.
    const width = this.element.offsetWidth;
    const height = this.element.offsetHeight;
    const hostWidth = this.host.clientWidth;
    const hostHeight = this.host.clientHeight;
    const right = x + radius + 10;
    const left = right + width <= hostWidth ? right : Math.max(0, x - radius - 10 - width);
    const top = Math.min(Math.max(0, y - height / 2), Math.max(0, hostHeight - height));
    this.element.style.left = `${Math.round(left)}px`;
    this.element.style.top = `${Math.round(top)}px`;
  }

  hide(): void {
    this.element.hidden = true;
  }

  /** The text shown (tests), or null when hidden. */
  text(): string | null {
    return this.element.hidden ? null : (this.element.textContent ?? '');
  }
}

function inspectorHtml(e: EntityView, fields: readonly EntityField[]): string {
  const n = (v: number) => String(Math.round(v * 100) / 100);
  const rows: string[] = [
    row('health', `${n(e.health)} / ${n(e.maxHealth)}`),
    row('position', `(${n(e.x)}, ${n(e.y)})`),
    row('speed', n(e.speed)),
    row('interest', e.interest > 0 ? n(e.interest) : 'none'),
  ];
  const breed = fields.filter((f) => f.setBy === 'breed');
  const set = fields.filter((f) => f.setBy === 'spell');
  if (breed.length > 0) rows.push(`<tr class="group"><th colspan="2">breed attributes</th></tr>`, ...breed.map((f) => row(f.name, valueText(f))));
  if (set.length > 0) rows.push(`<tr class="group"><th colspan="2">set by spells</th></tr>`, ...set.map((f) => row(f.name, valueText(f))));
  return `<div class="title">${escapeHtml(e.breed)} <span class="id">#${e.id}</span></div><table>${rows.join('')}</table>`;
}

function valueText(f: EntityField): string {
  const shown = displayBounded(f.value, MAX_VALUE_CHARS);
  if (shown !== null) return shown;
  return typeof f.value === 'string' ? `${f.value.slice(0, MAX_VALUE_CHARS)}… (${f.value.length} characters)` : '… (too long to show)';
}

function row(name: string, value: string): string {
  return `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`;
}
