/**
 * Short-lived visual effects driven by world events (the Observer side of
 * the event queue): floating damage numbers, particle bursts, sound rings,
 * speech, AOI enter/leave flashes, cast beams. Positions are world units;
 * the renderer maps them to the screen.
 */
import type { WorldEvent } from '../../../runtime/events/events.js';

export type Effect =
  | { kind: 'number'; x: number; y: number; text: string; colour: string; age: number; life: number }
  | { kind: 'particle'; x: number; y: number; vx: number; vy: number; colour: string; age: number; life: number }
  | { kind: 'ring'; x: number; y: number; text: string; age: number; life: number }
  | { kind: 'say'; entity: number; text: string; age: number; life: number }
  | { kind: 'link'; from: number; to: number; colour: string; dashed: boolean; age: number; life: number };

const PARTICLE_COLOURS: Readonly<Record<string, string>> = {
  flame: '#ff9e4a', fire: '#ff9e4a', frost: '#7dcfff', ice: '#7dcfff', spark: '#ffe66d', lightning: '#ffe66d',
  heal: '#9ece6a', poison: '#b5e853', smoke: '#8a90a0', magic: '#bb9af7',
};
const MAX_EFFECTS = 4000;

/** Deterministic jitter so effects do not touch the world's seeded random source. */
let jitterSeed = 12345;
function jitter(): number {
  jitterSeed = (jitterSeed * 1103515245 + 12345) & 0x7fffffff;
  return jitterSeed / 0x7fffffff;
}

export class EffectList {
  effects: Effect[] = [];

  /** Turn a world event into effects; `position` finds an entity's current position. */
  add(event: WorldEvent, position: (id: number) => { x: number; y: number } | null): void {
    switch (event.type) {
      case 'damage':
      case 'heal': {
        const p = position(event.entity);
        if (!p) return;
        const text = `${event.type === 'damage' ? '-' : '+'}${round(event.amount)}`;
        // A little sideways jitter keeps the numbers of neighbours hit at once readable.
        const x = p.x + (jitter() - 0.5) * 1.5;
        this.push({ kind: 'number', x, y: p.y, text, colour: event.type === 'damage' ? '#ff6b6b' : '#9ece6a', age: 0, life: 1.2 });
        return;
      }
      case 'particles': {
        const colour = PARTICLE_COLOURS[event.kind] ?? '#bb9af7';
        const n = Math.min(60, Math.max(1, Math.floor(event.count)));
        for (let i = 0; i < n; i++) {
          const angle = jitter() * Math.PI * 2;
          const speed = 0.5 + jitter() * 2.5;
          this.push({ kind: 'particle', x: event.x, y: event.y, vx: Math.cos(angle) * speed, vy: Math.sin(angle) * speed, colour, age: 0, life: 0.5 + jitter() * 0.6 });
        }
        return;
      }
      case 'sound':
        this.push({ kind: 'ring', x: event.x, y: event.y, text: `♪ ${event.name}`, age: 0, life: 0.9 });
        return;
      case 'say':
        this.push({ kind: 'say', entity: event.entity, text: event.text, age: 0, life: 2.5 });
        return;
      case 'aoi':
        if (event.kind === 'move') return;
        this.push({ kind: 'link', from: event.observer, to: event.subject, colour: event.kind === 'enter' ? '#9ece6a' : '#8a90a0', dashed: true, age: 0, life: 0.9 });
        return;
      case 'cast':
        if (event.caster !== null && event.target !== null && event.caster !== event.target) {
          this.push({ kind: 'link', from: event.caster, to: event.target, colour: '#f0a35e', dashed: false, age: 0, life: 0.5 });
        }
        return;
      default:
        return;
    }
  }

  private push(effect: Effect): void {
    if (this.effects.length < MAX_EFFECTS) this.effects.push(effect);
  }

  /** Age every effect by `dt` seconds and drop the finished ones. */
  advance(dt: number): void {
    for (const e of this.effects) {
      e.age += dt;
      if (e.kind === 'particle') {
        e.x += e.vx * dt;
        e.y += e.vy * dt;
      } else if (e.kind === 'number') {
        e.y -= 1.2 * dt;
      }
    }
    this.effects = this.effects.filter((e) => e.age < e.life);
  }
}

function round(n: number): string {
  return String(Math.round(n * 10) / 10);
}
