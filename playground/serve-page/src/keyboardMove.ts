/**
 * The keyboard as a joystick: WASD (by physical key, so any layout works)
 * and the arrow keys held down make a direction; the avatar's velocity is
 * that direction at full speed (the server clamps it to the breed's speed).
 * A change is reported once, when the direction changes, not per key
 * repeat: the page sends one `move` per change, never a flood.
 */

/** Physical key (KeyboardEvent.code) → unit step; y grows downwards, as on the canvas. */
const DIRECTIONS: Readonly<Record<string, readonly [number, number]>> = {
  KeyW: [0, -1],
  ArrowUp: [0, -1],
  KeyS: [0, 1],
  ArrowDown: [0, 1],
  KeyA: [-1, 0],
  ArrowLeft: [-1, 0],
  KeyD: [1, 0],
  ArrowRight: [1, 0],
};

/** What the page asks for; the server clamps it to the breed's speed. */
export const REQUESTED_SPEED = 100;

export interface Velocity {
  readonly vx: number;
  readonly vy: number;
}

export class KeyboardMove {
  private readonly held = new Set<string>();
  private current: Velocity = { vx: 0, vy: 0 };

  constructor(private readonly onChange: (velocity: Velocity) => void) {}

  /** A key went down; true when it is a movement key (the page then keeps it from scrolling). */
  press(code: string): boolean {
    if (!(code in DIRECTIONS)) return false;
    this.held.add(code);
    this.update();
    return true;
  }

  release(code: string): boolean {
    if (!this.held.delete(code)) return code in DIRECTIONS;
    this.update();
    return true;
  }

  /** The page lost the keyboard (blur): nothing is held any more. */
  releaseAll(): void {
    this.held.clear();
    this.update();
  }

  velocity(): Velocity {
    return this.current;
  }

  private update(): void {
    let dx = 0;
    let dy = 0;
    for (const code of this.held) {
      dx += DIRECTIONS[code]![0];
      dy += DIRECTIONS[code]![1];
    }
    dx = Math.sign(dx);
    dy = Math.sign(dy);
    const length = Math.hypot(dx, dy);
    const next = length === 0 ? { vx: 0, vy: 0 } : { vx: (dx / length) * REQUESTED_SPEED, vy: (dy / length) * REQUESTED_SPEED };
    if (next.vx === this.current.vx && next.vy === this.current.vy) return;
    this.current = next;
    this.onChange(next);
  }
}
