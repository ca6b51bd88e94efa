import { describe, expect, it } from 'vitest';
import { KeyboardMove, REQUESTED_SPEED, type Velocity } from './keyboardMove.js';

function keyboard(): { move: KeyboardMove; sent: Velocity[] } {
  const sent: Velocity[] = [];
  return { move: new KeyboardMove((v) => sent.push(v)), sent };
}

describe('KeyboardMove', () => {
  it('turns WASD and the arrows into a velocity at full speed, diagonals included', () => {
    const { move, sent } = keyboard();
    expect(move.press('KeyD')).toBe(true);
    expect(sent).toEqual([{ vx: REQUESTED_SPEED, vy: 0 }]);
    move.press('ArrowUp');
    const d = REQUESTED_SPEED / Math.SQRT2;
    expect(sent[1]!.vx).toBeCloseTo(d);
    expect(sent[1]!.vy).toBeCloseTo(-d);
    move.release('KeyD');
    move.release('ArrowUp');
    expect(sent.at(-1)).toEqual({ vx: 0, vy: 0 });
  });

  it('reports a change once: key repeats and a second key for the same direction send nothing', () => {
    const { move, sent } = keyboard();
    move.press('KeyW');
    move.press('KeyW');
    move.press('ArrowUp');
    expect(sent).toEqual([{ vx: 0, vy: -REQUESTED_SPEED }]);
    move.release('KeyW');
    expect(sent).toHaveLength(1);
    move.release('ArrowUp');
    expect(sent).toHaveLength(2);
  });

  it('stops when opposite keys are held, and when the page loses the keyboard', () => {
    const { move, sent } = keyboard();
    move.press('KeyA');
    move.press('KeyD');
    expect(move.velocity()).toEqual({ vx: 0, vy: 0 });
    move.press('KeyS');
    expect(move.velocity()).toEqual({ vx: 0, vy: REQUESTED_SPEED });
    move.releaseAll();
    expect(sent.at(-1)).toEqual({ vx: 0, vy: 0 });
  });

  it('leaves other keys to the page', () => {
    const { move, sent } = keyboard();
    expect(move.press('KeyQ')).toBe(false);
    expect(move.release('Digit1')).toBe(false);
    expect(sent).toEqual([]);
  });
});
