import { describe, expect, it } from 'vitest';
import { ZoneGrid, parseGridSize } from './zone-grid.js';

describe('ZoneGrid', () => {
  const grid = new ZoneGrid(90, 40, { columns: 3, rows: 2 }, 2);

  it('cuts the world into C×R zones named by column and row', () => {
    expect(grid.rects().map((z) => [z.id, z.x, z.y, z.width, z.height])).toEqual([
      ['z0-0', 0, 0, 30, 20],
      ['z1-0', 30, 0, 30, 20],
      ['z2-0', 60, 0, 30, 20],
      ['z0-1', 0, 20, 30, 20],
      ['z1-1', 30, 20, 30, 20],
      ['z2-1', 60, 20, 30, 20],
    ]);
    expect(grid.zoneAt(30, 19.9).id).toBe('z1-0');
    expect(grid.zoneAt(90, 40).id).toBe('z2-1');
  });

  it('hands an entity over only once it is past the border by more than the hysteresis', () => {
    const z00 = grid.zone('z0-0')!;
    expect(grid.handoverTarget(z00, 31.5, 10)).toBeNull();
    expect(grid.handoverTarget(z00, 32.5, 10)?.id).toBe('z1-0');
    expect(grid.handoverTarget(z00, 32.5, 23)?.id).toBe('z1-1');
    // Back across: the other zone keeps it until it is 2 units inside z0-0.
    expect(grid.handoverTarget(grid.zone('z1-0')!, 29, 10)).toBeNull();
  });

  it('finds the neighbours an entity is within range of (for ghosts)', () => {
    const z00 = grid.zone('z0-0')!;
    expect(grid.neighboursWithin(z00, 27, 10, 5).map((z) => z.id)).toEqual(['z1-0']);
    expect(grid.neighboursWithin(z00, 27, 17, 5).map((z) => z.id)).toEqual(['z1-0', 'z0-1', 'z1-1']);
    expect(grid.neighboursWithin(z00, 10, 10, 5)).toEqual([]);
  });

  it('parses --zones', () => {
    expect(parseGridSize('3x2')).toEqual({ columns: 3, rows: 2 });
    expect(parseGridSize('0x2')).toBeNull();
    expect(parseGridSize('3 by 2')).toBeNull();
  });
});
