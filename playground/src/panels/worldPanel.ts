/**
 * The world on a canvas: the grid, AOI ranges, entities coloured by breed
 * with health bars, and effects. Play / pause / step drive `world.tick`;
 * clicking entities picks the caster, then the target.
 */
import type { EntityId, WorldEvent } from '../../../runtime/events/events.js';
import type { EntityView } from '../../../runtime/world/world.js';
import { EffectList } from '../world/effects.js';
import { EntityInspector } from './entityInspector.js';
import type { PlaygroundWorld } from '../world/playgroundWorld.js';
import { layoutBubbles, placeClearOf, type Bubble, type PlacedBubble } from '../world/bubbles.js';

export interface WorldPanelEvents {
  onSelectionChange(caster: EntityId | null, target: EntityId | null): void;
}

interface Viewport {
  scale: number;
  ox: number;
  oy: number;
}

const MARGIN = 16;
/** Above these counts, glyphs and everyone's AOI ranges are not drawn. */
const GLYPH_LIMIT = 400;
const AOI_LIMIT = 200;
/** Real time per frame is capped so a background tab coming back does not fast-forward the world. */
const MAX_FRAME_DT = 0.1;
/** At the starting zoom, the closest entities are drawn at least this far apart (edge to edge, px): room for glyphs and health bars. */
const START_GAP_PX = 10;
/** The starting zoom goes at most this far past "everything in view" (the rest of the world stays a wheel turn away). */
const MAX_START_ZOOM = 2.5;

/** Canvas colours, read from the page's CSS variables so the light theme reaches the world too. */
interface CanvasColours {
  background: string;
  ground: string;
  grid: string;
  border: string;
  glyph: string;
  text: string;
  bubble: string;
  bubbleText: string;
}

function readColours(): CanvasColours {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: v('--canvas-bg', '#12141a'),
    ground: v('--canvas-ground', '#191c24'),
    grid: v('--canvas-grid', 'rgba(255,255,255,0.06)'),
    border: v('--border', '#2d3240'),
    glyph: v('--canvas-glyph', '#0d0f14'),
    text: v('--muted', '#8a90a0'),
    bubble: v('--canvas-bubble', 'rgba(20, 22, 28, 0.88)'),
    bubbleText: v('--canvas-bubble-text', '#e6e6e6'),
  };
}

export class WorldPanel {
  caster: EntityId | null = null;
  target: EntityId | null = null;
  playing = false;
  private gridShown = true;
  private aoiShown = true;
  readonly effects = new EffectList();
  /** A frame is requested (the canvas draws only when something changed: idle costs nothing). */
  private frameRequested = false;
  /** Frames drawn so far (the end-to-end tests check that an idle page draws none). */
  framesDrawn = 0;
  private colours: CanvasColours = readColours();
  private hovered: EntityId | null = null;
  private viewport: Viewport = { scale: 1, ox: 0, oy: 0 };
  private lastFrame = 0;
  private readonly ctx: CanvasRenderingContext2D;
  /** Entity positions as last drawn, for effects of entities that just died. */
  private lastPositions = new Map<EntityId, { x: number; y: number }>();
  /** Called each frame while playing; errors thrown by the world are reported, never propagated. */
  onTickError: (message: string) => void = () => {};
  /** Called after the world ran one or more steps (the debugger resumes waiting casts). */
  afterStep: () => void = () => {};
  /** What the hovered entity is and holds, beside it. */
  readonly inspector: EntityInspector;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly readout: HTMLElement,
    readonly world: PlaygroundWorld,
    private readonly events: WorldPanelEvents,
  ) {
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('Canvas 2D is not available.');
    this.ctx = ctx;
    this.inspector = new EntityInspector(canvas.parentElement ?? document.body);
    canvas.addEventListener('click', (e) => this.click(e));
    canvas.addEventListener('mousemove', (e) => {
      const hovered = this.entityAt(e.offsetX, e.offsetY);
      if (hovered === this.hovered) return;
      this.hovered = hovered;
      this.updateReadout();
      this.requestDraw();
    });
    canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, e.offsetX, e.offsetY);
        this.requestDraw();
      },
      { passive: false },
    );
    canvas.addEventListener('dblclick', () => {
      this.camera = null;
      this.requestDraw();
    });
    canvas.addEventListener('mouseleave', () => {
      if (this.hovered === null) return;
      this.hovered = null;
      this.updateReadout();
      this.requestDraw();
    });
    new ResizeObserver(() => this.requestDraw()).observe(canvas);
    this.requestDraw();
  }

  get showGrid(): boolean {
    return this.gridShown;
  }

  set showGrid(on: boolean) {
    this.gridShown = on;
    this.requestDraw();
  }

  get showAoi(): boolean {
    return this.aoiShown;
  }

  set showAoi(on: boolean) {
    this.aoiShown = on;
    this.requestDraw();
  }

  /** The theme changed: read the canvas colours again. */
  refreshColours(): void {
    this.colours = readColours();
    this.requestDraw();
  }

  /**
   * Something on the canvas changed (the world, the selection, the view):
   * draw in the next frame. While the world plays or effects fade, frames
   * follow one another; then the loop stops until the next change.
   */
  requestDraw(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame((t) => this.frame(t));
  }

  /** A world event: effects for the canvas. */
  observe(event: WorldEvent): void {
    this.effects.add(event, (id) => this.world.entity(id) ?? this.lastPositions.get(id) ?? null);
    this.requestDraw();
  }

  play(): void {
    this.playing = true;
    this.requestDraw();
  }

  pause(): void {
    this.playing = false;
    this.requestDraw();
  }

  /** One fixed step of the world. */
  stepTick(): void {
    this.guard(() => this.world.world?.step());
    this.guard(() => this.afterStep());
    this.pruneSelection();
    this.updateReadout();
    this.requestDraw();
  }

  setSelection(caster: EntityId | null, target: EntityId | null): void {
    this.caster = caster;
    this.target = target;
    this.events.onSelectionChange(caster, target);
    this.updateReadout();
    this.requestDraw();
  }

  /** Drop selections of entities that no longer exist (after a reset or a death). */
  pruneSelection(): void {
    const alive = (id: EntityId | null) => id !== null && this.world.entity(id) !== null;
    const caster = alive(this.caster) ? this.caster : null;
    const target = alive(this.target) ? this.target : null;
    if (caster !== this.caster || target !== this.target) this.setSelection(caster, target);
  }

  /** Where an entity is drawn, in CSS pixels relative to the canvas (tests click there). */
  screenPosition(id: EntityId): { x: number; y: number } | null {
    const e = this.world.entity(id);
    if (!e) return null;
    this.computeViewport();
    return { x: this.sx(e.x), y: this.sy(e.y) };
  }

  private guard(body: () => void): void {
    try {
      body();
    } catch (e) {
      this.playing = false;
      this.onTickError(e instanceof Error ? e.message : String(e));
    }
  }

  private frame(time: number): void {
    this.frameRequested = false;
    const dt = this.lastFrame === 0 ? 0 : Math.min(MAX_FRAME_DT, (time - this.lastFrame) / 1000);
    this.lastFrame = time;
    if (this.playing && this.world.world) {
      this.guard(() => {
        if (this.world.world!.tick(dt) > 0) {
          this.afterStep();
          this.pruneSelection();
        }
      });
    }
    this.effects.advance(dt);
    try {
      this.render();
    } catch (e) {
      this.onTickError(e instanceof Error ? e.message : String(e));
    }
    this.updateReadout();
    if (this.playing || this.effects.effects.length > 0) this.requestDraw();
    else this.lastFrame = 0; // idle: the next frame starts afresh, with no time to catch up
  }

  private click(e: MouseEvent): void {
    const id = this.entityAt(e.offsetX, e.offsetY);
    // First pick the caster, then the target; a third pick starts over with a new caster.
    if (id === null) this.setSelection(null, null);
    else if (id === this.caster) this.setSelection(id, null);
    else if (this.caster === null || this.target !== null) this.setSelection(id, null);
    else this.setSelection(this.caster, id);
  }

  private entityAt(px: number, py: number): EntityId | null {
    this.computeViewport();
    let best: EntityId | null = null;
    let bestDistance = Infinity;
    for (const e of this.world.entities()) {
      const d = Math.hypot(this.sx(e.x) - px, this.sy(e.y) - py);
      const reach = Math.max(this.entityPixels(e), 9);
      if (d <= reach && d < bestDistance) {
        best = e.id;
        bestDistance = d;
      }
    }
    return best;
  }

  /** The part of the world in view (world units); the wheel zooms, a double click shows it all. */
  private camera: { x0: number; y0: number; x1: number; y1: number } | null = null;

  /** Frame the entities (with room around them), as a designer wants to see them at first. */
  fitToEntities(): void {
    const entities = this.world.entities();
    const o = this.world.setup.options;
    if (entities.length === 0) {
      this.camera = null;
      return;
    }
    let x0 = Math.min(...entities.map((e) => e.x));
    let x1 = Math.max(...entities.map((e) => e.x));
    let y0 = Math.min(...entities.map((e) => e.y));
    let y1 = Math.max(...entities.map((e) => e.y));
    const pad = Math.max(6, 0.25 * Math.max(x1 - x0, y1 - y0));
    x0 = Math.max(0, x0 - pad);
    y0 = Math.max(0, y0 - pad);
    x1 = Math.min(o.width, x1 + pad);
    y1 = Math.min(o.height, y1 + pad);
    this.camera = { x0, y0, x1, y1 };
    this.spreadCrowd(entities);
    this.requestDraw();
  }

  /**
   * Zoom in (around the first hero, else the crowd's middle) until the
   * closest entities are drawn apart, so their glyphs and health bars do not
   * overlap; entities farther off may then be out of view (the wheel zooms
   * out, a double click shows the whole world, the hint says so).
   */
  private spreadCrowd(entities: readonly EntityView[]): void {
    if (entities.length < 2 || entities.length > 200) return;
    this.computeViewport();
    const fit = this.viewport.scale;
    const apart = (scale: number): boolean => {
      for (let i = 0; i < entities.length; i++) {
        for (let j = i + 1; j < entities.length; j++) {
          const a = entities[i]!;
          const b = entities[j]!;
          const d = Math.hypot(a.x - b.x, a.y - b.y);
          if (d <= a.radius + b.radius) continue; // they overlap in the world itself: no zoom separates them
          const ra = Math.max(8, a.radius * scale);
          const rb = Math.max(8, b.radius * scale);
          if (d * scale < ra + rb + START_GAP_PX) return false;
        }
      }
      return true;
    };
    let scale = fit;
    while (!apart(scale) && scale * 1.15 <= fit * MAX_START_ZOOM) scale *= 1.15;
    if (scale <= fit * 1.01) return;
    const w = this.canvas.clientWidth - 2 * MARGIN;
    const h = this.canvas.clientHeight - 2 * MARGIN;
    if (w <= 0 || h <= 0) return;
    const focus = this.focusPoint(entities);
    const cw = w / scale;
    const ch = h / scale;
    const o = this.world.setup.options;
    // Keep the view inside the world where it fits (no empty band past its edge).
    const x0 = cw >= o.width ? focus.x - cw / 2 : Math.max(0, Math.min(o.width - cw, focus.x - cw / 2));
    const y0 = ch >= o.height ? focus.y - ch / 2 : Math.max(0, Math.min(o.height - ch, focus.y - ch / 2));
    this.camera = { x0, y0, x1: x0 + cw, y1: y0 + ch };
  }

  /** Where a designer looks first: the middle of the entities near the caster (or the first entity). */
  private focusPoint(entities: readonly EntityView[]): { x: number; y: number } {
    const anchor = entities.find((e) => e.id === this.caster) ?? entities[0]!;
    const near = entities.filter((e) => Math.hypot(e.x - anchor.x, e.y - anchor.y) <= 8);
    const x = near.reduce((sum, e) => sum + e.x, 0) / near.length;
    const y = near.reduce((sum, e) => sum + e.y, 0) / near.length;
    return { x, y };
  }

  private zoom(factor: number, px: number, py: number): void {
    this.computeViewport();
    const o = this.world.setup.options;
    const cx = (px - this.viewport.ox) / this.viewport.scale;
    const cy = (py - this.viewport.oy) / this.viewport.scale;
    const c = this.camera ?? { x0: 0, y0: 0, x1: o.width, y1: o.height };
    const w = Math.min(o.width * 1.2, Math.max(4, (c.x1 - c.x0) * factor));
    const h = Math.min(o.height * 1.2, Math.max(3, (c.y1 - c.y0) * factor));
    const fx = (cx - c.x0) / (c.x1 - c.x0);
    const fy = (cy - c.y0) / (c.y1 - c.y0);
    this.camera = { x0: cx - fx * w, y0: cy - fy * h, x1: cx - fx * w + w, y1: cy - fy * h + h };
  }

  private computeViewport(): void {
    const w = this.canvas.clientWidth;
    const h = this.canvas.clientHeight;
    const o = this.world.setup.options;
    const c = this.camera ?? { x0: 0, y0: 0, x1: o.width, y1: o.height };
    const cw = c.x1 - c.x0;
    const ch = c.y1 - c.y0;
    const scale = Math.max(0.01, Math.min((w - 2 * MARGIN) / cw, (h - 2 * MARGIN) / ch));
    this.viewport = { scale, ox: (w - cw * scale) / 2 - c.x0 * scale, oy: (h - ch * scale) / 2 - c.y0 * scale };
  }

  private sx(x: number): number {
    return this.viewport.ox + x * this.viewport.scale;
  }

  private sy(y: number): number {
    return this.viewport.oy + y * this.viewport.scale;
  }

  private entityPixels(e: EntityView): number {
    return Math.max(8, e.radius * this.viewport.scale);
  }

  /** Draw everything once (the frame loop calls it; the benchmark times it). */
  render(): void {
    this.framesDrawn++;
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.clientWidth;
    const h = this.canvas.clientHeight;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = this.colours.background;
    ctx.fillRect(0, 0, w, h);
    this.computeViewport();
    this.drawGround();
    const entities = this.world.entities();
    this.lastPositions = new Map(entities.map((e) => [e.id, { x: e.x, y: e.y }]));
    if (this.showAoi) this.drawInterest(entities);
    this.drawLinks();
    this.drawEntities(entities);
    this.drawEffects();
    if (!this.world.world) this.drawMessage('The world is not loaded: fix the spell or the breeds.');
    this.updateInspector();
  }

  /** The inspector follows the hovered entity (its values as of this frame), and goes when it does. */
  private updateInspector(): void {
    const e = this.hovered === null ? null : this.world.entity(this.hovered);
    if (e === null) {
      this.inspector.hide();
      return;
    }
    this.inspector.show(e, this.world.fields(e.id), this.sx(e.x), this.sy(e.y), this.entityPixels(e));
  }

  private drawGround(): void {
    const ctx = this.ctx;
    const o = this.world.setup.options;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, 0, this.canvas.clientWidth, this.canvas.clientHeight);
    ctx.clip();
    ctx.fillStyle = this.colours.ground;
    ctx.fillRect(this.sx(0), this.sy(0), o.width * this.viewport.scale, o.height * this.viewport.scale);
    if (this.showGrid) {
      const cell = o.cellSize ?? 8;
      ctx.strokeStyle = this.colours.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = 0; x <= o.width + 1e-9; x += cell) {
        ctx.moveTo(Math.round(this.sx(x)) + 0.5, this.sy(0));
        ctx.lineTo(Math.round(this.sx(x)) + 0.5, this.sy(o.height));
      }
      for (let y = 0; y <= o.height + 1e-9; y += cell) {
        ctx.moveTo(this.sx(0), Math.round(this.sy(y)) + 0.5);
        ctx.lineTo(this.sx(o.width), Math.round(this.sy(y)) + 0.5);
      }
      ctx.stroke();
    }
    ctx.strokeStyle = this.colours.border;
    ctx.strokeRect(this.sx(0), this.sy(0), o.width * this.viewport.scale, o.height * this.viewport.scale);
    ctx.restore();
  }

  private drawInterest(entities: readonly EntityView[]): void {
    const ctx = this.ctx;
    const square = this.world.world?.options.interestShape === 'square';
    ctx.setLineDash([4, 4]);
    ctx.lineWidth = 1;
    // With a crowd, only the picked entities show their range (thousands of dashed circles are noise).
    const crowd = entities.length > AOI_LIMIT;
    for (const e of entities) {
      if (e.interest <= 0) continue;
      if (crowd && e.id !== this.caster && e.id !== this.target && e.id !== this.hovered) continue;
      const r = e.interest * this.viewport.scale;
      ctx.strokeStyle = withAlpha(this.world.breedColour(e.breed), 0.35);
      ctx.beginPath();
      if (square) ctx.rect(this.sx(e.x) - r, this.sy(e.y) - r, 2 * r, 2 * r);
      else ctx.arc(this.sx(e.x), this.sy(e.y), r, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  /**
   * Entities in batches — one path per breed colour, three for the health
   * bars — so thousands of them cost a handful of fills, not thousands.
   */
  private drawEntities(entities: readonly EntityView[]): void {
    const ctx = this.ctx;
    const byColour = new Map<string, EntityView[]>();
    for (const e of entities) {
      const colour = this.world.breedColour(e.breed);
      const list = byColour.get(colour);
      if (list) list.push(e);
      else byColour.set(colour, [e]);
    }
    for (const [colour, list] of byColour) {
      ctx.fillStyle = colour;
      ctx.beginPath();
      for (const e of list) {
        const r = this.entityPixels(e);
        ctx.moveTo(this.sx(e.x) + r, this.sy(e.y));
        ctx.arc(this.sx(e.x), this.sy(e.y), r, 0, Math.PI * 2);
      }
      ctx.fill();
    }
    this.drawHealthBars(entities);
    if (entities.length <= GLYPH_LIMIT) for (const e of entities) this.drawGlyph(e);
    for (const id of [this.caster, this.target, this.hovered]) {
      const e = id === null ? undefined : entities.find((x) => x.id === id);
      if (!e) continue;
      ctx.lineWidth = 2;
      ctx.strokeStyle = e.id === this.caster ? '#7aa2f7' : e.id === this.target ? '#f7768e' : '#ffffff';
      ctx.beginPath();
      ctx.arc(this.sx(e.x), this.sy(e.y), this.entityPixels(e) + 4, 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  private drawGlyph(e: EntityView): void {
    const r = this.entityPixels(e);
    if (r < 7) return;
    const ctx = this.ctx;
    ctx.fillStyle = this.colours.glyph;
    ctx.font = `bold ${Math.round(r * 1.1)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(this.world.breedGlyph(e.breed), this.sx(e.x), this.sy(e.y) + 1);
  }

  private drawHealthBars(entities: readonly EntityView[]): void {
    const ctx = this.ctx;
    const bands = ['#9ece6a', '#e0af68', '#f7768e'].map((colour) => ({ colour, path: new Path2D() }));
    const background = new Path2D();
    for (const e of entities) {
      const r = this.entityPixels(e);
      const width = Math.max(16, r * 2.2);
      const x = this.sx(e.x) - width / 2;
      const y = this.sy(e.y) - r - 8;
      const fraction = e.maxHealth > 0 ? Math.max(0, Math.min(1, e.health / e.maxHealth)) : 0;
      background.rect(x, y, width, 4);
      bands[fraction > 0.5 ? 0 : fraction > 0.25 ? 1 : 2]!.path.rect(x, y, width * fraction, 4);
    }
    ctx.fillStyle = '#3a0d14';
    ctx.fill(background);
    for (const band of bands) {
      ctx.fillStyle = band.colour;
      ctx.fill(band.path);
    }
  }

  private drawLinks(): void {
    const ctx = this.ctx;
    for (const fx of this.effects.effects) {
      if (fx.kind !== 'link') continue;
      const a = this.world.entity(fx.from) ?? this.lastPositions.get(fx.from);
      const b = this.world.entity(fx.to) ?? this.lastPositions.get(fx.to);
      if (!a || !b) continue;
      ctx.globalAlpha = 1 - fx.age / fx.life;
      ctx.strokeStyle = fx.colour;
      ctx.lineWidth = fx.dashed ? 1.5 : 3;
      ctx.setLineDash(fx.dashed ? [3, 3] : []);
      ctx.beginPath();
      ctx.moveTo(this.sx(a.x), this.sy(a.y));
      ctx.lineTo(this.sx(b.x), this.sy(b.y));
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
  }

  private drawEffects(): void {
    const ctx = this.ctx;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const speech: Bubble[] = [];
    const numbers: { text: string; colour: string; alpha: number; x: number; y: number }[] = [];
    for (const fx of this.effects.effects) {
      const fade = 1 - fx.age / fx.life;
      ctx.globalAlpha = Math.max(0, fade);
      if (fx.kind === 'particle') {
        ctx.fillStyle = fx.colour;
        ctx.fillRect(this.sx(fx.x) - 1.5, this.sy(fx.y) - 1.5, 3, 3);
      } else if (fx.kind === 'number') {
        // Drawn after the speech bubbles, clear of them.
        numbers.push({ text: fx.text, colour: fx.colour, alpha: Math.max(0, fade), x: this.sx(fx.x), y: this.sy(fx.y) - 18 });
      } else if (fx.kind === 'ring') {
        ctx.strokeStyle = '#7dcfff';
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.arc(this.sx(fx.x), this.sy(fx.y), 6 + 40 * (fx.age / fx.life), 0, Math.PI * 2);
        ctx.stroke();
        ctx.font = '12px system-ui, sans-serif';
        ctx.fillStyle = '#7dcfff';
        ctx.fillText(fx.text, this.sx(fx.x), this.sy(fx.y) + 22);
      } else if (fx.kind === 'say') {
        const live = this.world.entity(fx.entity);
        const p = live ?? this.lastPositions.get(fx.entity);
        if (!p) continue;
        // Above the health bar (drawn at r + 8 above the centre).
        const above = (live ? this.entityPixels(live) : 8) + 12;
        speech.push({ entity: fx.entity, text: `“${fx.text}”`, x: this.sx(p.x), y: this.sy(p.y) - above, age: fx.age, life: fx.life });
      }
    }
    ctx.globalAlpha = 1;
    const bubbles = this.drawBubbles(speech);
    this.drawNumbers(numbers, bubbles);
  }

  /** Floating damage and heal numbers, each moved clear of the speech bubbles it would cover. */
  private drawNumbers(numbers: readonly { text: string; colour: string; alpha: number; x: number; y: number }[], bubbles: readonly PlacedBubble[]): void {
    const ctx = this.ctx;
    ctx.font = 'bold 15px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const n of numbers) {
      const at = placeClearOf({ x: n.x, y: n.y, width: ctx.measureText(n.text).width, height: 16 }, bubbles, this.canvas.clientWidth);
      ctx.globalAlpha = n.alpha;
      ctx.fillStyle = n.colour;
      ctx.fillText(n.text, at.x, at.y);
    }
    ctx.globalAlpha = 1;
  }

  /** Speech as bubbles laid out so none overlaps another (older lines stack above, the oldest fade out); returns where they went. */
  private drawBubbles(speech: readonly Bubble[]): readonly PlacedBubble[] {
    if (speech.length === 0) return [];
    const ctx = this.ctx;
    ctx.font = 'italic 12px system-ui, sans-serif';
    const placed = layoutBubbles(speech, (text) => ctx.measureText(text).width, this.canvas.clientWidth);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const b of placed) {
      ctx.globalAlpha = b.alpha;
      ctx.fillStyle = this.colours.bubble;
      ctx.beginPath();
      ctx.roundRect(b.left, b.top, b.width, b.height, 4);
      ctx.fill();
      ctx.fillStyle = this.colours.bubbleText;
      ctx.fillText(b.text, b.left + b.width / 2, b.top + b.height / 2 + 0.5);
    }
    ctx.globalAlpha = 1;
    return placed;
  }

  private drawMessage(text: string): void {
    const ctx = this.ctx;
    ctx.fillStyle = this.colours.text;
    ctx.font = '13px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText(text, this.canvas.clientWidth / 2, this.canvas.clientHeight / 2);
  }

  private describe(id: EntityId | null): string {
    if (id === null) return '—';
    const e = this.world.entity(id);
    if (!e) return `#${id} (gone)`;
    return `${e.breed}#${e.id} ♥${round(e.health)}/${round(e.maxHealth)} (${round(e.x)}, ${round(e.y)})`;
  }

  updateReadout(): void {
    const w = this.world.world;
    const parts = [`caster ${this.describe(this.caster)}`, `target ${this.describe(this.target)}`];
    if (this.hovered !== null && this.hovered !== this.caster && this.hovered !== this.target) parts.push(`hover ${this.describe(this.hovered)}`);
    if (w) parts.push(`t=${w.time.toFixed(1)}s · step ${w.steps} · ${w.pool.count} entities${this.playing ? ' · playing' : ''}`);
    const text = parts.join('  ·  ');
    if (this.readout.textContent !== text) this.readout.textContent = text;
  }

  /** Benchmark: spawn `count` extra entities, then time world steps and renders. */
  benchmark(count: number, frames: number): { tick: number[]; render: number[] } | null {
    const world = this.world.world;
    if (!world) return null;
    const breeds = world.breeds.breeds.filter((b) => !b.abstract).map((b) => b.name);
    const o = this.world.setup.options;
    for (let i = 0; i < count; i++) world.spawn(breeds[i % breeds.length]!, ((i * 7919) % 1000) / 1000 * o.width, ((i * 104729) % 997) / 997 * o.height);
    const tick: number[] = [];
    const render: number[] = [];
    for (let f = 0; f < frames; f++) {
      const t0 = performance.now();
      world.step();
      const t1 = performance.now();
      this.render();
      tick.push(t1 - t0);
      render.push(performance.now() - t1);
    }
    return { tick, render };
  }
}

function round(n: number): string {
  return String(Math.round(n * 10) / 10);
}

function withAlpha(colour: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(colour);
  if (!m) return colour;
  const n = parseInt(m[1]!, 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
