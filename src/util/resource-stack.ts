/**
 * Resources that release themselves (a disposable stack, as `AsyncDisposableStack` in newer
 * runtimes): code that takes several resources one after another (a lock, a budget timer, tools,
 * a queue) registers each one's release as it gets it; on failure one `dispose()` releases exactly
 * what was taken, last first, and on success `move()` hands everything to the owner of the result
 * (e.g. a prepared search's `close()`). No hand-written catch block per resource.
 */
export interface ResourceStack {
  /** Registers `release` for `resource` and returns the resource. */
  use<T>(resource: T, release: (resource: T) => void | Promise<void>): T;
  /** Registers a release step that owns no value. */
  defer(release: () => void | Promise<void>): void;
  /** A new stack holding everything this one held; this one is left empty. */
  move(): ResourceStack;
  /**
   * Releases everything, last registered first. Every step runs even when one throws; the first
   * error is thrown after all of them ran. Releasing twice does nothing the second time.
   */
  dispose(): Promise<void>;
}

/** An empty stack. */
export function createResourceStack(): ResourceStack {
  let steps: Array<() => void | Promise<void>> = [];
  const stack: ResourceStack = {
    use(resource, release) {
      steps.push(() => release(resource));
      return resource;
    },
    defer(release) {
      steps.push(release);
    },
    move() {
      const next = createResourceStack();
      for (const step of steps) next.defer(step);
      steps = [];
      return next;
    },
    async dispose() {
      const pending = steps.reverse();
      steps = [];
      let failed: { error: unknown } | undefined;
      for (const step of pending) {
        try {
          await step();
        } catch (e) {
          failed ??= { error: e };
        }
      }
      if (failed) throw failed.error;
    },
  };
  return stack;
}
