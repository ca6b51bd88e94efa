/**
 * What the page does once it is ready rather than before: the editor takes
 * input first; checking the breeds, the first compile (markers, bytecode,
 * spell menu) and building the world (every library spell compiled) follow
 * in the browser's idle time, one task per idle period, in order. Whatever
 * needs their results sooner — Cast, Run, Play, an example, the test hook —
 * calls `flush`, which runs what is left at once, so nothing ever acts on a
 * page that has not finished starting.
 */
export class StartupTasks {
  private readonly pending: (() => void)[] = [];
  private scheduled = false;

  /** Run `task` after the ones added before it, when the page is idle (or sooner, through flush). */
  later(task: () => void): void {
    this.pending.push(task);
    this.schedule();
  }

  /** Run every task still pending, now. */
  flush(): void {
    // Each leaves the list before it runs: a task that itself flushes runs only the ones after it.
    for (let task = this.pending.shift(); task !== undefined; task = this.pending.shift()) task();
  }

  get done(): boolean {
    return this.pending.length === 0;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const next = (): void => {
      this.scheduled = false;
      this.pending.shift()?.();
      if (this.pending.length > 0) this.schedule();
    };
    // An idle period, or within a fifth of a second at the latest (a busy page still finishes starting).
    if (typeof requestIdleCallback === 'function') requestIdleCallback(next, { timeout: 200 });
    else setTimeout(next, 1);
  }
}
