/**
 * A client's view from the AOI: what enters, moves and leaves its avatar's
 * range, in the plain encoding and the compact one — a client that applies
 * the compact messages ends with the same positions as one that applies the
 * plain ones, and one message never names a handle for two entities.
 */
import { describe, expect, it } from 'vitest';
import type { BreedData } from '../runtime/entities/breeds.js';
import { World } from '../runtime/world/world.js';
import { ClientView } from './client-view.js';
import type { ViewMessage } from './protocol.js';
import { ViewRouter } from './view-router.js';

const BREEDS = { breeds: [{ name: 'Hero', health: 10, interest: 10 }, { name: 'Bird', health: 5 }] } as BreedData;

/** What a client knows after applying view messages: id → [x, y, health]. */
class Screen {
  readonly at = new Map<string, [number, number, number]>();
  private readonly handles = new Map<number, string>();
  apply(v: ViewMessage): void {
    for (const id of v.l ?? []) this.at.delete(id);
    for (let i = 0; i < (v.c ?? []).length; i += 3) {
      const id = this.handles.get(v.c![i]!)!;
      const [x, y, hp] = this.at.get(id)!;
      this.at.set(id, [Math.round(x * 100 + v.c![i + 1]!) / 100, Math.round(y * 100 + v.c![i + 2]!) / 100, hp]);
    }
    for (const [id, x, y] of v.m ?? []) this.at.set(id, [x, y, this.at.get(id)![2]]);
    for (const entry of v.e ?? []) {
      this.at.set(entry[0], [entry[2], entry[3], entry[4]]);
      if (entry.length === 6) this.handles.set(entry[5], entry[0]);
    }
    for (const [id, health] of v.h ?? []) this.at.get(id)![2] = health;
  }
}

describe('ClientView', () => {
  it('shows what enters, moves in and leaves the avatar range, the same in both encodings', () => {
    const world = new World({ width: 100, height: 100, step: 0.1, seed: 4 });
    world.loadBreeds(BREEDS);
    const hero = world.spawn('Hero', 50, 50);
    const birds: number[] = [];
    for (let i = 0; i < 30; i++) {
      const bird = world.spawn('Bird', 30 + (i % 6) * 8, 30 + Math.floor(i / 6) * 8);
      world.setVelocity(bird, ((i * 37) % 11) - 5, ((i * 53) % 9) - 4);
      birds.push(bird);
    }
    world.step();
    const plain = new ClientView(world, hero);
    const compact = new ClientView(world, hero, true);
    const router = new ViewRouter();
    router.add(plain);
    router.add(compact);
    world.on((e) => router.route(e));
    const screens = { plain: new Screen(), compact: new Screen() };
    let left = 0;
    for (let t = 0; t < 60; t++) {
      world.step();
      const p = plain.flush(world.steps).view;
      const c = compact.flush(world.steps).view;
      if (p !== null) screens.plain.apply(p);
      if (c !== null) {
        expect(c.m).toBeUndefined();
        const handles = (c.e ?? []).map((e) => e[5]);
        expect(new Set(handles).size).toBe(handles.length);
        screens.compact.apply(c);
      }
      left += p?.l?.length ?? 0;
      // What the client shows is what is in range now (the avatar included).
      const hx = world.stat(hero, 'x');
      const hy = world.stat(hero, 'y');
      const inRange = new Set(world.nearby(hx, hy, 10).map(String));
      expect(new Set(screens.plain.at.keys())).toEqual(inRange);
    }
    expect(left).toBeGreaterThan(0);
    expect(screens.compact.at).toEqual(screens.plain.at);
    for (const [id, [x, y]] of screens.plain.at) {
      expect(x).toBe(Math.round(world.stat(Number(id), 'x') * 100) / 100);
      expect(y).toBe(Math.round(world.stat(Number(id), 'y') * 100) / 100);
    }
  });
});
