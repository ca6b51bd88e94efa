/**
 * Draws a world on a 2D canvas: the ground and its grid, AOI ranges,
 * entities coloured by breed with glyphs and health bars, rings around picked
 * entities, and the effects of world events (beams, particles, sound rings,
 * speech bubbles, floating damage numbers). It knows nothing of where the
 * entities come from: the playground draws its local World with it, the
 * zone server's browser page (playground/serve-page) the view a server sent.
 * Positions are world units; the viewport maps them to CSS pixels.
 */
import type { Effect } from './effects.js';
import { layoutBubbles, placeClearOf, type Bubble, type PlacedBubble } from './bubbles.js';

/** What the painter needs of an entity (the runtime's EntityView has all of it). */
export interface PaintedEntity {
  readonly id: number;
  readonly breed: string;
  readonly x: number;
  readonly y: number;
  readonly health: number;
  readonly maxHealth: number;
  readonly radius: number;
  readonly interest: number;
}

/** The entities to draw and how their breeds look. */
export interface PaintedScene {
  entity(id: number): PaintedEntity | null;
  breedColour(breed: string): string;
  breedGlyph(breed: string): string;
}

/** The part of the world in view, world units. */
export interface Camera {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export interface Viewport {
  scale: number;
  ox: number;
  oy: number;
}

/** A ring drawn around an entity (the playground's caster and target, the page's own avatar). */
export interface Ring {
  readonly id: number | null;
  readonly colour: string;
}

/** Canvas colours, read from the page's CSS variables so a light theme reaches the world too. */
export interface CanvasColours {
  background: string;
  ground: string;
  grid: string;
  border: string;
  glyph: string;
  text: string;
  bubble: string;
  bubbleText: string;
}

export function readColours(): CanvasColours {
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

/** Room left around the camera's rectangle, CSS pixels. */
export const MARGIN = 16;
/** Above this count, glyphs are not drawn. */
const GLYPH_LIMIT = 400;

export class WorldPainter {
  colours: CanvasColours = readColours();
  viewport: Viewport = { scale: 1, ox: 0, oy: 0 };
  readonly ctx: CanvasRenderingContext2D;
  /** Entity positions as last drawn, for effects of entities that just died or left the view. */
  private lastPositions = new Map<number, { x: number; y: number }>();

  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly scene: PaintedScene,
  ) {
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('Canvas 2D is not available.');
    this.ctx = ctx;
  }

  /** Fit `camera` into the canvas (keeping its aspect: the longer side decides the scale). */
  fit(camera: Camera): void {
    const w = this.canvas.clientWidth;
    const h = this.canvas.clientHeight;
    const cw = camera.x1 - camera.x0;
    const ch = camera.y1 - camera.y0;
    const scale = Math.max(0.01, Math.min((w - 2 * MARGIN) / cw, (h - 2 * MARGIN) / ch));
    this.viewport = { scale, ox: (w - cw * scale) / 2 - camera.x0 * scale, oy: (h - ch * scale) / 2 - camera.y0 * scale };
  }

  /** The camera zoomed by `factor` around the screen point (px, py), no wider or taller than `limit` (world units). */
  zoomed(camera: Camera, factor: number, px: number, py: number, limit: { width: number; height: number }): Camera {
    const cx = (px - this.viewport.ox) / this.viewport.scale;
    const cy = (py - this.viewport.oy) / this.viewport.scale;
    const w = Math.min(limit.width, Math.max(4, (camera.x1 - camera.x0) * factor));
    const h = Math.min(limit.height, Math.max(3, (camera.y1 - camera.y0) * factor));
    const fx = (cx - camera.x0) / (camera.x1 - camera.x0);
    const fy = (cy - camera.y0) / (camera.y1 - camera.y0);
    return { x0: cx - fx * w, y0: cy - fy * h, x1: cx - fx * w + w, y1: cy - fy * h + h };
  }

  sx(x: number): number {
    return this.viewport.ox + x * this.viewport.scale;
  }

  sy(y: number): number {
    return this.viewport.oy + y * this.viewport.scale;
  }

  /** An entity's drawn radius: its own, never smaller than can be seen and clicked. */
  entityPixels(e: PaintedEntity): number {
    return Math.max(8, e.radius * this.viewport.scale);
  }

  /** The entity under the screen point (px, py), the closest one when several are. */
  entityAt(entities: readonly PaintedEntity[], px: number, py: number): number | null {
    let best: number | null = null;
    let bestDistance = Infinity;
    for (const e of entities) {
      const d = Math.hypot(this.sx(e.x) - px, this.sy(e.y) - py);
      const reach = Math.max(this.entityPixels(e), 9);
      if (d <= reach && d < bestDistance) {
        best = e.id;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Start a frame: size the canvas for the screen's pixel ratio, clear it, remember where the entities are. */
  begin(entities: readonly PaintedEntity[]): void {
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
    for (const e of entities) this.lastPositions.set(e.id, { x: e.x, y: e.y });
    if (this.lastPositions.size > 2 * entities.length + 64) this.lastPositions = new Map(entities.map((e) => [e.id, { x: e.x, y: e.y }]));
  }

  /** Where an entity is, or was when last drawn. */
  position(id: number): { x: number; y: number } | null {
    return this.scene.entity(id) ?? this.lastPositions.get(id) ?? null;
  }

  /** The ground of a `width` × `height` world, with grid lines every `cell` units when `cell` is given. */
  drawGround(width: number, height: number, cell: number | null): void {
    const ctx = this.ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, 0, this.canvas.clientWidth, this.canvas.clientHeight);
    ctx.clip();
    ctx.fillStyle = this.colours.ground;
    ctx.fillRect(this.sx(0), this.sy(0), width * this.viewport.scale, height * this.viewport.scale);
    if (cell !== null && cell > 0) {
      ctx.strokeStyle = this.colours.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = 0; x <= width + 1e-9; x += cell) {
        ctx.moveTo(Math.round(this.sx(x)) + 0.5, this.sy(0));
        ctx.lineTo(Math.round(this.sx(x)) + 0.5, this.sy(height));
      }
      for (let y = 0; y <= height + 1e-9; y += cell) {
        ctx.moveTo(this.sx(0), Math.round(this.sy(y)) + 0.5);
        ctx.lineTo(this.sx(width), Math.round(this.sy(y)) + 0.5);
      }
      ctx.stroke();
    }
    ctx.strokeStyle = this.colours.border;
    ctx.strokeRect(this.sx(0), this.sy(0), width * this.viewport.scale, height * this.viewport.scale);
    ctx.restore();
  }

  /** The interest range of each entity in `entities` (dashed, in its breed's colour). */
  drawInterest(entities: readonly PaintedEntity[], square: boolean): void {
    const ctx = this.ctx;
    ctx.setLineDash([4, 4]);
    ctx.lineWidth = 1;
    for (const e of entities) {
      if (e.interest <= 0) continue;
      const r = e.interest * this.viewport.scale;
      ctx.strokeStyle = withAlpha(this.scene.breedColour(e.breed), 0.35);
      ctx.beginPath();
      if (square) ctx.rect(this.sx(e.x) - r, this.sy(e.y) - r, 2 * r, 2 * r);
      else ctx.arc(this.sx(e.x), this.sy(e.y), r, 0, Math.PI * 2);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  /**
   * Entities in batches — one path per breed colour, three for the health
   * bars — so thousands of them cost a handful of fills, not thousands; then
   * a ring around each entity `rings` names.
   */
  drawEntities(entities: readonly PaintedEntity[], rings: readonly Ring[]): void {
    const ctx = this.ctx;
    const byColour = new Map<string, PaintedEntity[]>();
    for (const e of entities) {
      const colour = this.scene.breedColour(e.breed);
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
    for (const ring of rings) {
      const e = ring.id === null ? undefined : entities.find((x) => x.id === ring.id);
      if (!e) continue;
      ctx.lineWidth = 2;
      ctx.strokeStyle = ring.colour;
      ctx.beginPath();
      ctx.arc(this.sx(e.x), this.sy(e.y), this.entityPixels(e) + 4, 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  private drawGlyph(e: PaintedEntity): void {
    const r = this.entityPixels(e);
    if (r < 7) return;
    const ctx = this.ctx;
    ctx.fillStyle = this.colours.glyph;
    ctx.font = `bold ${Math.round(r * 1.1)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(this.scene.breedGlyph(e.breed), this.sx(e.x), this.sy(e.y) + 1);
  }

  private drawHealthBars(entities: readonly PaintedEntity[]): void {
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

  /** Cast beams and AOI enter/leave links between entities. */
  drawLinks(effects: readonly Effect[]): void {
    const ctx = this.ctx;
    for (const fx of effects) {
      if (fx.kind !== 'link') continue;
      const a = this.position(fx.from);
      const b = this.position(fx.to);
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

  /** Particles, sound rings, speech bubbles and floating numbers. */
  drawEffects(effects: readonly Effect[]): void {
    const ctx = this.ctx;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const speech: Bubble[] = [];
    const numbers: { text: string; colour: string; alpha: number; x: number; y: number }[] = [];
    for (const fx of effects) {
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
        const live = this.scene.entity(fx.entity);
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

  /** A line of text in the middle of the canvas (the world is not there to draw). */
  drawMessage(text: string): void {
    const ctx = this.ctx;
    ctx.fillStyle = this.colours.text;
    ctx.font = '13px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText(text, this.canvas.clientWidth / 2, this.canvas.clientHeight / 2);
  }
}

/** `#rrggbb` with an alpha, as `rgba(…)`; other colours as they are. */
export function withAlpha(colour: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(colour);
  if (!m) return colour;
  const n = parseInt(m[1]!, 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
