import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUBBLE_HEIGHT, MAX_LINES_PER_SPEAKER, layoutBubbles, placeClearOf, type Bubble } from './bubbles.js';

const measure = (text: string) => text.length * 6;

function intersects(a: { left: number; top: number; width: number; height: number }, b: typeof a): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

describe('layoutBubbles', () => {
  it('stacks a speaker\'s lines, newest nearest, instead of drawing them on top of each other', () => {
    const say = (text: string, age: number): Bubble => ({ entity: 1, text, x: 100, y: 100, age, life: 2.5 });
    const placed = layoutBubbles([say('old', 1), say('new', 0.1), say('mid', 0.5)], measure, 800);
    expect(placed.map((p) => p.text)).toEqual(['new', 'mid', 'old']);
    expect(placed[0]!.top).toBe(100 - BUBBLE_HEIGHT);
    expect(placed[1]!.top).toBeLessThan(placed[0]!.top - BUBBLE_HEIGHT + 1);
    expect(placed[2]!.alpha).toBeLessThan(placed[0]!.alpha);
  });

  it('keeps a few lines per speaker', () => {
    const many = Array.from({ length: 10 }, (_, i): Bubble => ({ entity: 1, text: `line ${i}`, x: 100, y: 200, age: i * 0.1, life: 2.5 }));
    expect(layoutBubbles(many, measure, 800)).toHaveLength(MAX_LINES_PER_SPEAKER);
  });

  it('never overlaps two bubbles, whoever speaks where (property)', () => {
    const bubble = fc.record({
      entity: fc.integer({ min: 1, max: 6 }),
      text: fc.string({ minLength: 1, maxLength: 30 }),
      x: fc.integer({ min: 0, max: 400 }),
      y: fc.integer({ min: 0, max: 300 }),
      age: fc.double({ min: 0, max: 2.4, noNaN: true }),
      life: fc.constant(2.5),
    });
    fc.assert(
      fc.property(fc.array(bubble, { maxLength: 25 }), (bubbles) => {
        const placed = layoutBubbles(bubbles, measure, 400);
        for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) expect(intersects(placed[i]!, placed[j]!)).toBe(false);
      }),
    );
  });
});

describe('placeClearOf (damage numbers and speech bubbles)', () => {
  it('leaves a number that covers no bubble where it is, and moves one that would beside the bubble', () => {
    const [bubble] = layoutBubbles([{ entity: 1, text: '“I hunger”', x: 200, y: 100, age: 0, life: 2.5 }], measure, 800);
    expect(placeClearOf({ x: 50, y: 50, width: 20, height: 16 }, [bubble!], 800)).toEqual({ x: 50, y: 50 });
    const moved = placeClearOf({ x: 200, y: bubble!.top + 5, width: 20, height: 16 }, [bubble!], 800);
    expect(moved.y).toBe(bubble!.top + 5);
    expect(moved.x - 10).toBeGreaterThanOrEqual(bubble!.left + bubble!.width);
  });

  it('never draws a number over a bubble when there is room beside or under it (property)', () => {
    const bubble = fc.record({
      entity: fc.integer({ min: 1, max: 3 }),
      text: fc.string({ minLength: 1, maxLength: 20 }),
      x: fc.integer({ min: 100, max: 300 }),
      y: fc.integer({ min: 60, max: 240 }),
      age: fc.double({ min: 0, max: 2.4, noNaN: true }),
      life: fc.constant(2.5),
    });
    const label = fc.record({ x: fc.integer({ min: 0, max: 400 }), y: fc.integer({ min: 0, max: 300 }), width: fc.integer({ min: 8, max: 30 }), height: fc.constant(16) });
    fc.assert(
      fc.property(fc.array(bubble, { maxLength: 4 }), label, (bubbles, l) => {
        const placed = layoutBubbles(bubbles, measure, 400);
        const at = placeClearOf(l, placed, 400);
        const rect = { left: at.x - l.width / 2, top: at.y - l.height / 2, width: l.width, height: l.height };
        const moved = at.x !== l.x || at.y !== l.y;
        // Either it covers nothing, or no clear place beside or under the bubble was found and it stayed.
        if (moved || !placed.some((p) => intersects(p, rect))) expect(placed.some((p) => intersects(p, rect))).toBe(false);
      }),
    );
  });
});
