/** rbush 4 ships no type declarations; this is the part the benchmark uses. */
declare module 'rbush' {
  export interface BBox {
    minX: number;
    minY: number;
    maxX: number;
    maxY: number;
  }
  export default class RBush<T extends BBox> {
    constructor(maxEntries?: number);
    clear(): this;
    load(items: readonly T[]): this;
    insert(item: T): this;
    remove(item: T, equals?: (a: T, b: T) => boolean): this;
    search(box: BBox): T[];
    all(): T[];
  }
}
