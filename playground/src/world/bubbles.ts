/**
 * Speech bubbles laid out so they never overlap: the newest line of each
 * speaker sits just above it, its older lines stack above that, and a bubble
 * that would cover another moves up until it is clear (or is left out when
 * the crowd leaves no room — the console has every line). Screen pixels;
 * plain TypeScript, so the layout is unit tested without a canvas.
 */

export interface Bubble {
  readonly entity: number;
  readonly text: string;
  /** Anchor: the point above the speaker the bubble's bottom centre sits on. */
  readonly x: number;
  readonly y: number;
  readonly age: number;
  readonly life: number;
}

export interface PlacedBubble {
  readonly text: string;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  readonly alpha: number;
}

export const BUBBLE_HEIGHT = 18;
const PADDING_X = 6;
const GAP = 2;
/** Lines kept per speaker; older ones are dropped. */
export const MAX_LINES_PER_SPEAKER = 3;
/** How far a bubble may be pushed up looking for room. */
const MAX_TRIES = 8;

export function layoutBubbles(bubbles: readonly Bubble[], measure: (text: string) => number, canvasWidth: number): PlacedBubble[] {
  const newestFirst = [...bubbles].sort((a, b) => a.age - b.age);
  const linesOf = new Map<number, number>();
  const placed: PlacedBubble[] = [];
  /** The top of each speaker's highest bubble so far: the next (older) one goes above it. */
  const ceiling = new Map<number, number>();
  for (const b of newestFirst) {
    const index = linesOf.get(b.entity) ?? 0;
    if (index >= MAX_LINES_PER_SPEAKER) continue;
    linesOf.set(b.entity, index + 1);
    const width = Math.ceil(measure(b.text)) + 2 * PADDING_X;
    const left = Math.max(2, Math.min(canvasWidth - width - 2, b.x - width / 2));
    let top = (ceiling.get(b.entity) ?? b.y) - BUBBLE_HEIGHT - (index > 0 ? GAP : 0);
    let tries = 0;
    while (tries < MAX_TRIES && placed.some((p) => overlaps(p, left, top, width))) {
      top -= BUBBLE_HEIGHT + GAP;
      tries++;
    }
    if (tries === MAX_TRIES) continue;
    ceiling.set(b.entity, top);
    const fade = Math.min(1, Math.max(0, (b.life - b.age) / (0.3 * b.life)));
    placed.push({ text: b.text, left, top, width, height: BUBBLE_HEIGHT, alpha: fade * Math.pow(0.75, index) });
  }
  return placed;
}

function overlaps(p: PlacedBubble, left: number, top: number, width: number): boolean {
  return left < p.left + p.width + GAP && p.left < left + width + GAP && top < p.top + p.height + GAP && p.top < top + BUBBLE_HEIGHT + GAP;
}

/** A label (a floating damage or heal number) to keep clear of the bubbles: its centre and size, screen pixels. */
export interface Label {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Where to draw `label` so it covers no bubble: where it is when that is
 * clear, else beside the bubble it would cover (right, then left), else
 * under it; as it was when nothing nearby is clear (a crowd of bubbles).
 */
export function placeClearOf(label: Label, bubbles: readonly PlacedBubble[], canvasWidth: number): { x: number; y: number } {
  const covers = (x: number, y: number) => bubbles.find((b) => labelOverlaps(b, x, y, label.width, label.height));
  const hit = covers(label.x, label.y);
  if (hit === undefined) return { x: label.x, y: label.y };
  const candidates = [
    { x: hit.left + hit.width + GAP + label.width / 2, y: label.y },
    { x: hit.left - GAP - label.width / 2, y: label.y },
    { x: label.x, y: hit.top + hit.height + GAP + label.height / 2 },
  ];
  const inside = (c: { x: number }) => c.x - label.width / 2 >= 0 && c.x + label.width / 2 <= canvasWidth;
  return candidates.find((c) => inside(c) && covers(c.x, c.y) === undefined) ?? { x: label.x, y: label.y };
}

function labelOverlaps(p: PlacedBubble, x: number, y: number, width: number, height: number): boolean {
  const left = x - width / 2;
  const top = y - height / 2;
  return left < p.left + p.width && p.left < left + width && top < p.top + p.height && p.top < top + height;
}
