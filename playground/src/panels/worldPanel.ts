/**
 * The world on a canvas: the grid, AOI ranges, entities coloured by breed
 * with health bars, and effects (drawn by world/worldPainter.ts, which the
 * zone server's browser page shares). Play / pause / step drive `world.tick`;
 * clicking entities picks the caster, then the target; the wheel zooms.
 */
import type { EntityId, WorldEvent } from '../../../runtime/events/events.js';
import type { EntityView } from '../../../runtime/world/world.js';
import { EffectList } from '../world/effects.js';
import { EntityInspector } from './entityInspector.js';
import type { PlaygroundWorld } from '../world/playgroundWorld.js';
import { MARGIN, WorldPainter, readColours, type Camera } from '../world/worldPainter.js';

export interface WorldPanelEvents {
  onSelectionChange(caster: EntityId | null, target: EntityId | null): void;
}

/** Above this count, everyone's AOI ranges are not drawn (only the picked entities'). */
const AOI_LIMIT = 200;
/** Real time per frame is capped so a background tab coming back does not fast-forward the world. */
const MAX_FRAME_DT = 0.1;
/** At the starting zoom, the closest entities are drawn at least this far apart (edge to edge, px): room for glyphs and health bars. */
const START_GAP_PX = 10;
/** The starting zoom goes at most this far past "everything in view" (the rest of the world stays a wheel turn away). */
const MAX_START_ZOOM = 2.5;

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
  private hovered: EntityId | null = null;
  private lastFrame = 0;
  private readonly painter: WorldPainter;
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
    this.painter = new WorldPainter(canvas, world);
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
    this.painter.colours = readColours();
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
    this.effects.add(event, (id) => this.painter.position(id));
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
    return { x: this.painter.sx(e.x), y: this.painter.sy(e.y) };
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
    return this.painter.entityAt(this.world.entities(), px, py);
  }

  /** The part of the world in view (world units); the wheel zooms, a double click shows it all. */
  private camera: Camera | null = null;

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
    const fit = this.painter.viewport.scale;
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
    this.camera = this.painter.zoomed(this.wholeWorldOr(this.camera), factor, px, py, { width: o.width * 1.2, height: o.height * 1.2 });
  }

  private wholeWorldOr(camera: Camera | null): Camera {
    const o = this.world.setup.options;
    return camera ?? { x0: 0, y0: 0, x1: o.width, y1: o.height };
  }

  private computeViewport(): void {
    this.painter.fit(this.wholeWorldOr(this.camera));
  }

  /** Draw everything once (the frame loop calls it; the benchmark times it). */
  render(): void {
    this.framesDrawn++;
    const painter = this.painter;
    const entities = this.world.entities();
    painter.begin(entities);
    this.computeViewport();
    const o = this.world.setup.options;
    painter.drawGround(o.width, o.height, this.showGrid ? (o.cellSize ?? 8) : null);
    if (this.showAoi) {
      // With a crowd, only the picked entities show their range (thousands of dashed circles are noise).
      const picked = (e: EntityView) => e.id === this.caster || e.id === this.target || e.id === this.hovered;
      painter.drawInterest(entities.length > AOI_LIMIT ? entities.filter(picked) : entities, this.world.world?.options.interestShape === 'square');
    }
    painter.drawLinks(this.effects.effects);
    painter.drawEntities(entities, [
      { id: this.caster, colour: '#7aa2f7' },
      { id: this.target, colour: '#f7768e' },
      { id: this.hovered, colour: '#ffffff' },
    ]);
    painter.drawEffects(this.effects.effects);
    if (!this.world.world) painter.drawMessage('The world is not loaded: fix the spell or the breeds.');
    this.updateInspector();
  }

  /** The inspector follows the hovered entity (its values as of this frame), and goes when it does. */
  private updateInspector(): void {
    const e = this.hovered === null ? null : this.world.entity(this.hovered);
    if (e === null) {
      this.inspector.hide();
      return;
    }
    this.inspector.show(e, this.world.fields(e.id), this.painter.sx(e.x), this.painter.sy(e.y), this.painter.entityPixels(e));
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
