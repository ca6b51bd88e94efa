/**
 * AOI enter/leave events as console lines, a few per tick: with hundreds of
 * entities a tick makes hundreds of them, which would bury prints, damage
 * and errors. Past the limit, one line says how many more there were.
 */
export class AoiDigest {
  private tick = -1;
  private shown = 0;
  private hidden: { count: number } | null = null;

  constructor(
    private readonly perTick: number,
    private readonly emit: (text: string) => void,
    /** Runs the summary once the tick's events are all delivered (they arrive in one synchronous flush). */
    private readonly later: (fn: () => void) => void = (fn) => queueMicrotask(fn),
  ) {}

  add(tick: number, text: string): void {
    if (tick !== this.tick) {
      this.tick = tick;
      this.shown = 0;
      this.hidden = null;
    }
    if (this.shown < this.perTick) {
      this.shown++;
      this.emit(text);
      return;
    }
    if (this.hidden === null) {
      const hidden = { count: 0 };
      this.hidden = hidden;
      this.later(() => this.emit(`[tick ${tick}] … and ${hidden.count} more AOI enter/leave event${hidden.count === 1 ? '' : 's'}`));
    }
    this.hidden.count++;
  }
}
