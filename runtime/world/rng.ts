/**
 * The world's seeded random source (mulberry32): tiny, fast, and its whole
 * state is one 32-bit number, so snapshots capture it exactly.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  get seedState(): number {
    return this.state;
  }

  set seedState(value: number) {
    this.state = value >>> 0;
  }
}
