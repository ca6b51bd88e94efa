/**
 * The page's world view: the shared world painter (playground/src/world)
 * drawing what the server sent — the world's ground, the zone borders with
 * their ids, the avatar's interest range, the entities in view labelled
 * with their ids, the own avatar ringed and marked "you", and the effects of
 * world events. The camera follows the avatar (the wheel zooms); before
 * joining it shows the whole world. It draws only when something changed.
 */
import type { WorldEvent } from '../../../runtime/events/events.js';
import { EffectList } from '../../src/world/effects.js';
import { WorldPainter, type Camera } from '../../src/world/worldPainter.js';
import { labelOf, type ZoneView, type ViewEntity } from './zoneView.js';

/** The camera shows this much around the avatar, in multiples of its interest range (the wheel changes it). */
const START_ZOOM = 1.35;
const MIN_ZOOM = 0.4;
const MAX_ZOOM = 6;
/** Real time per frame is capped, so a background tab coming back does not fast-forward the effects. */
const MAX_FRAME_DT = 0.1;
/** The own avatar stands out in white (breed colours are never white); the last clicked entity in red; the hovered one in grey. */
const AVATAR_RING = '#ffffff';
const TARGET_RING = '#f7768e';
const HOVER_RING = '#8a90a0';
const ZONE_BORDER = 'rgba(224, 175, 104, 0.85)';
const ZONE_LABEL = '#e0af68';
const OWN_ZONE_FILL = 'rgba(122, 162, 247, 0.06)';
/** Entity labels: their line height (px), and the crowd above which they are left out. */
const LABEL_HEIGHT = 14;
const LABEL_LIMIT = 200;

export class ZoneCanvas {
  readonly effects = new EffectList();
  /** The entity last clicked (ringed), by local number. */
  target: number | null = null;
  /** Frames drawn so far (tests wait for a frame after a change). */
  framesDrawn = 0;
  /** Called with the entity under a click (null: the ground). */
  onPick: (id: number | null) => void = () => {};
  private hovered: number | null = null;
  private zoom = START_ZOOM;
  private frameRequested = false;
  private lastFrame = 0;
  private readonly painter: WorldPainter;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly view: ZoneView,
  ) {
    this.painter = new WorldPainter(canvas, view);
    canvas.addEventListener('click', (e) => this.onPick(this.entityAt(e.offsetX, e.offsetY)));
    canvas.addEventListener('mousemove', (e) => {
      const hovered = this.entityAt(e.offsetX, e.offsetY);
      if (hovered === this.hovered) return;
      this.hovered = hovered;
      canvas.style.cursor = hovered === null ? '' : 'pointer';
      this.requestDraw();
    });
    canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, this.zoom * (e.deltaY > 0 ? 1.15 : 1 / 1.15)));
        this.requestDraw();
      },
      { passive: false },
    );
    new ResizeObserver(() => this.requestDraw()).observe(canvas);
    this.requestDraw();
  }

  /** A world event from the server (entities as local numbers): effects on the canvas. */
  observe(event: WorldEvent): void {
    this.effects.add(event, (id) => this.painter.position(id));
    this.requestDraw();
  }

  requestDraw(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame((t) => this.frame(t));
  }

  /** Where an entity is drawn, CSS pixels relative to the canvas (tests click there). */
  screenPosition(id: number): { x: number; y: number } | null {
    const e = this.view.entity(id);
    if (!e) return null;
    this.painter.fit(this.camera());
    return { x: this.painter.sx(e.x), y: this.painter.sy(e.y) };
  }

  private frame(time: number): void {
    this.frameRequested = false;
    const dt = this.lastFrame === 0 ? 0 : Math.min(MAX_FRAME_DT, (time - this.lastFrame) / 1000);
    this.lastFrame = time;
    this.effects.advance(dt);
    this.render();
    if (this.effects.effects.length > 0) this.requestDraw();
    else this.lastFrame = 0;
  }

  private entityAt(px: number, py: number): number | null {
    this.painter.fit(this.camera());
    return this.painter.entityAt(this.view.entities(), px, py);
  }

  /** Around the avatar when it is in view, else the whole world. */
  private camera(): Camera {
    const world = this.view.world ?? { width: 100, height: 100 };
    const avatar = this.view.avatarEntity();
    if (avatar === null) return { x0: 0, y0: 0, x1: world.width, y1: world.height };
    const half = Math.max(4, this.view.interest) * this.zoom;
    return { x0: avatar.x - half, y0: avatar.y - half, x1: avatar.x + half, y1: avatar.y + half };
  }

  private render(): void {
    this.framesDrawn++;
    const painter = this.painter;
    const entities = this.view.entities();
    painter.begin(entities);
    painter.fit(this.camera());
    if (this.view.world === null) {
      painter.drawMessage('Waiting for the server…');
      return;
    }
    painter.drawGround(this.view.world.width, this.view.world.height, null);
    this.drawZones();
    const avatar = this.view.avatarEntity();
    if (avatar) painter.drawInterest([avatar], false);
    painter.drawLinks(this.effects.effects);
    // Later rings are drawn over earlier ones: the avatar's shows whatever else it is.
    painter.drawEntities(entities, [
      { id: this.hovered, colour: HOVER_RING },
      { id: this.target, colour: TARGET_RING },
      { id: avatar?.id ?? null, colour: AVATAR_RING },
    ]);
    this.drawLabels(entities, avatar);
    painter.drawEffects(this.effects.effects);
  }

  /** Every zone's border, dashed, with its id in its top-left corner; the avatar's zone tinted. */
  private drawZones(): void {
    const ctx = this.painter.ctx;
    const p = this.painter;
    const scale = p.viewport.scale;
    ctx.save();
    for (const z of this.view.zones) {
      if (z.id === this.view.zone) {
        ctx.fillStyle = OWN_ZONE_FILL;
        ctx.fillRect(p.sx(z.x), p.sy(z.y), z.width * scale, z.height * scale);
      }
    }
    ctx.setLineDash([8, 5]);
    ctx.lineWidth = 2;
    ctx.strokeStyle = ZONE_BORDER;
    for (const z of this.view.zones) ctx.strokeRect(p.sx(z.x), p.sy(z.y), z.width * scale, z.height * scale);
    ctx.setLineDash([]);
    ctx.font = 'bold 13px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillStyle = ZONE_LABEL;
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    const drawn: Box[] = [];
    for (const z of this.view.zones) {
      // Inside the zone's corner, or at the canvas's edge when that corner is out of view; only where it
      // fits inside the zone's part of the canvas and covers no other zone's label (two zones meeting
      // at a border would otherwise put theirs one over the other).
      const text = `zone ${z.id}${z.id === this.view.zone ? ' (yours)' : ''}`;
      const box = { left: Math.max(p.sx(z.x), 0) + 6, top: Math.max(p.sy(z.y), 0) + 6, width: ctx.measureText(text).width, height: 14 };
      const right = Math.min(p.sx(z.x + z.width), width) - 6;
      const bottom = Math.min(p.sy(z.y + z.height), height) - 6;
      if (box.left + box.width > right || box.top + box.height > bottom || drawn.some((b) => overlaps(b, box))) continue;
      drawn.push(box);
      ctx.fillText(text, box.left, box.top);
    }
    ctx.restore();
  }

  /**
   * Each entity's id under it. The labels of the entities that matter — your
   * avatar ("you · …"), the hovered one, the clicked one — always show, moved
   * down a line or two when they would cover another entity or label; any
   * other label shows only where it covers nothing, so a crowd stays
   * readable (hover an entity to see its id).
   */
  private drawLabels(entities: readonly ViewEntity[], avatar: ViewEntity | null): void {
    if (entities.length > LABEL_LIMIT) return;
    const ctx = this.painter.ctx;
    const p = this.painter;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const taken: Box[] = entities.map((e) => {
      const r = p.entityPixels(e);
      return { left: p.sx(e.x) - r, top: p.sy(e.y) - r - 8, width: 2 * r, height: 2 * r + 8 };
    });
    const picked = [avatar?.id, this.hovered, this.target];
    const rank = (e: ViewEntity) => (picked.includes(e.id) ? picked.indexOf(e.id) : picked.length);
    for (const e of [...entities].sort((a, b) => rank(a) - rank(b))) {
      const own = e === avatar;
      const text = own ? `you · ${labelOf(e)}` : labelOf(e);
      ctx.font = own ? 'bold 12px system-ui, sans-serif' : '11px system-ui, sans-serif';
      const width = ctx.measureText(text).width + 4;
      const box = { left: p.sx(e.x) - width / 2, top: p.sy(e.y) + p.entityPixels(e) + 6, width, height: LABEL_HEIGHT };
      const clear = () => !taken.some((b) => overlaps(b, box));
      if (rank(e) < picked.length) for (let tries = 0; tries < 2 && !clear(); tries++) box.top += LABEL_HEIGHT;
      else if (!clear()) continue;
      taken.push(box);
      ctx.fillStyle = own ? AVATAR_RING : p.colours.bubbleText;
      ctx.fillText(text, box.left + width / 2, box.top + LABEL_HEIGHT / 2);
    }
  }
}

/** Room taken on the canvas by a label or an entity, CSS pixels. */
interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}
