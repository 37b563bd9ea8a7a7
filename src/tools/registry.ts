import { AsyncLocalStorage } from 'node:async_hooks';
import { errorMessage, FlowScoutError } from '../errors/index.js';
import { describeUnknownName } from './close-names.js';
import { toPlainJson } from './plain-json.js';
import { resolveEffects, type EffectRules } from './effects.js';
import { isToolResult, type ToolResultFields } from './tool-result.js';
import type {
  ToolCallContext,
  ToolCallOutcome,
  ToolDescriptor,
  ToolEffects,
  ToolRegistry,
  ToolSet,
  ToolSpec,
  ToolStats,
} from '../contracts/tools.js';
import { compileArgsValidator, sharedAjv, type ArgsValidator } from './validate-args.js';

/**
 * The tools T of a run (docs/DESIGN.md, "The workflow IR": the registry validates the arguments against
 * the tool's input schema and calls it, and the observation is recorded). The registry is the one place that turns every
 * way a tool can fail — unknown name, bad arguments, a throw, a rejected promise, a timeout, a tool
 * that ignores its abort signal, an output that is not JSON — into an `error` outcome, so a run never
 * crashes because of a tool.
 */

/** Registry-wide settings. */
export interface ToolRegistryOptions {
  /** Per-call timeout in milliseconds (default 30000); a call's own `timeoutMs` wins. */
  timeoutMs?: number;
  /** Clock for durations (default `performance.now`). */
  now?: () => number;
  /** The tool config's effect rules (exact names and `*` patterns); they win over what a source declares. */
  effects?: EffectRules;
}

/** A tool call that takes longer than this (30 s) becomes an error outcome unless a timeout is set. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/**
 * Builds a registry from tool specs and tool sets (an MCP connection's tools). Tool names must be
 * unique across everything passed in; a duplicate is an INVALID_INPUT error naming both sources.
 */
export function createToolRegistry(
  items: ReadonlyArray<ToolSpec | ToolSet>,
  opts: ToolRegistryOptions = {},
): ToolRegistry {
  const now = opts.now ?? (() => performance.now());
  const defaultTimeout = opts.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const specs = new Map<string, { spec: ToolSpec; source: string }>();
  const sets: ToolSet[] = [];
  for (const item of items) {
    const isSet = Array.isArray((item as ToolSet).tools) && typeof (item as ToolSpec).execute !== 'function';
    const list = isSet ? (item as ToolSet).tools : [item as ToolSpec];
    const source = isSet ? `source '${(item as ToolSet).name}'` : 'the tool list';
    if (isSet) sets.push(item as ToolSet);
    for (const spec of list) {
      const prev = specs.get(spec.name);
      if (prev) {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `tool '${spec.name}' is defined twice (by ${prev.source} and by ${source})`,
          hint: 'Tool names must be unique across sources; use an MCP source\'s "include" list or rename one of them.',
        });
      }
      specs.set(spec.name, { spec, source });
    }
  }
  const effects = new Map<string, ToolEffects>(
    [...specs.values()].map(({ spec }) => [spec.name, resolveEffects(spec, opts.effects)]),
  );
  const ajv = sharedAjv();
  const validators = new Map<string, ArgsValidator>();
  const stats: ToolStats = { calls: 0, errors: 0, timeouts: 0, replayHits: 0, replayMisses: 0, simulated: 0 };
  let closed = false;

  const validatorFor = (spec: ToolSpec): ArgsValidator => {
    let v = validators.get(spec.name);
    if (!v) validators.set(spec.name, (v = compileArgsValidator(ajv, spec.name, spec.inputSchema)));
    return v;
  };

  const finish = (
    name: string,
    args: Record<string, unknown>,
    started: number,
    r: ToolResultFields & { timedOut?: boolean },
  ): ToolCallOutcome => {
    const outcome: ToolCallOutcome = { tool: name, args, status: r.status, durationMs: now() - started };
    if (r.status === 'ok' && r.output !== undefined) outcome.output = r.output;
    if (r.status === 'error') outcome.error = r.error ?? 'the tool failed without a message';
    if (r.origin) outcome.origin = r.origin;
    if (r.status === 'error') stats.errors++;
    if (r.timedOut) stats.timeouts++;
    if (r.cache === 'hit') stats.replayHits++;
    if (r.cache === 'miss' && r.origin !== 'simulated') stats.replayMisses++;
    if (r.origin === 'simulated' && r.status === 'ok') stats.simulated++;
    return outcome;
  };

  const call = async (
    name: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext = {},
  ): Promise<ToolCallOutcome> => {
    const started = now();
    stats.calls++;
    const entry = specs.get(name);
    if (!entry)
      return finish(name, args, started, {
        status: 'error',
        error: describeUnknownName('tool', name, [...specs.keys()]),
      });
    if (closed)
      return finish(name, args, started, {
        status: 'error',
        error: `the tool registry was closed; '${name}' cannot be called`,
      });
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return finish(name, args, started, {
        status: 'error',
        error: `arguments for '${name}' must be an object of named parameters`,
      });
    }
    let checked = validatorFor(entry.spec)(args);
    if (!checked.ok && entry.spec.vouchesFor?.(args)) checked = { ok: true, args };
    if (!checked.ok) return finish(name, args, started, { status: 'error', error: checked.message });
    if (ctx.signal?.aborted)
      return finish(name, args, started, { status: 'error', error: 'cancelled before the call started' });
    const timeoutMs = ctx.timeoutMs ?? defaultTimeout;
    const result = await runWithTimeout(entry.spec, checked.args, timeoutMs, ctx.signal);
    return finish(name, args, started, result);
  };

  // Every tool node asks for its candidates' descriptors on every attempt: each is built once (frozen).
  const descriptors = new Map<string, ToolDescriptor>(
    [...specs.values()].map(({ spec }) => [
      spec.name,
      Object.freeze({ name: spec.name, description: spec.description, inputSchema: spec.inputSchema }),
    ]),
  );

  return {
    list: (): ToolDescriptor[] => [...descriptors.values()],
    get: (name) => descriptors.get(name),
    call,
    effectOf: (name) => {
      const e = effects.get(name);
      return e ? { ...e } : undefined;
    },
    stats: () => ({ ...stats }),
    close: async () => {
      if (closed) return;
      closed = true;
      const results = await Promise.allSettled(sets.map((s) => s.close?.()));
      const failed = results.flatMap((r, i) =>
        r.status === 'rejected' ? [`${sets[i]!.name}: ${errorMessage(r.reason)}`] : [],
      );
      if (failed.length > 0) {
        throw new FlowScoutError({
          code: 'TOOL_ERROR',
          message: `could not close tool sources cleanly: ${failed.join('; ')}`,
        });
      }
    },
  };
}

/**
 * Errors a tool throws where no promise catches them (from a timer or an event handler it set up)
 * reach the process as an uncaught exception or an unhandled rejection, which would end it. Each
 * call runs in an async context of its own; while calls are in flight a process-level listener
 * routes such an error to the call whose context it was thrown in, which ends as an error outcome.
 * A tool's error after its call ended is reported on stderr and dropped; an error that comes from
 * no tool call is left to the process's other listeners (`flowscout serve` keeps serving), or,
 * when there are none, ends the process as Node would.
 */
interface CallScope {
  tool: string;
  /** Ends the call with this error (no-op once the call ended). */
  escape(error: unknown): void;
  ended: boolean;
}
const callScope = new AsyncLocalStorage<CallScope>();
let callsInFlight = 0;

function onEscaped(error: unknown, event: 'uncaughtException' | 'unhandledRejection'): void {
  const scope = callScope.getStore();
  if (scope && !scope.ended) return scope.escape(error);
  if (scope) {
    process.stderr.write(`a tool ('${scope.tool}') threw after its call ended; ignored: ${errorMessage(error)}\n`);
    return;
  }
  // Not a tool's: as if this listener were not there.
  if (process.listenerCount(event) > 1) return;
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
const onUncaught = (e: unknown) => onEscaped(e, 'uncaughtException');
const onUnhandled = (e: unknown) => onEscaped(e, 'unhandledRejection');

/** When the last call ended (`now` of performance), and the one timer that removes the listeners. */
let lastLeftAt = 0;
let listening = false;
let removal: ReturnType<typeof setTimeout> | undefined;
/** How long the listeners stay after the last call ended: a tool's timer may fire just after its call. */
const LINGER_MS = 1_000;

function enterCall(): void {
  callsInFlight++;
  if (!listening) {
    listening = true;
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUnhandled);
  }
}

function leaveCall(): void {
  callsInFlight--;
  lastLeftAt = performance.now();
  // One timer for all calls (not one per call): it removes the listeners once no call has been in
  // flight for LINGER_MS, and otherwise looks again when that time is up.
  if (removal === undefined) removal = setTimeout(lingerEnded, LINGER_MS).unref();
}

function lingerEnded(): void {
  removal = undefined;
  if (callsInFlight > 0) return; // the call still in flight schedules the check when it leaves
  const left = LINGER_MS - (performance.now() - lastLeftAt);
  if (left > 0) {
    removal = setTimeout(lingerEnded, left).unref();
    return;
  }
  listening = false;
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUnhandled);
}

/**
 * Runs `execute` under a timer and the caller's signal. The tool gets an AbortSignal that fires on
 * either; if it ignores the signal, the race still ends the call on time (its late result is dropped).
 */
function runWithTimeout(
  spec: ToolSpec,
  args: Record<string, unknown>,
  timeoutMs: number,
  outer: AbortSignal | undefined,
): Promise<CallResult> {
  return new ToolCallRun(spec, timeoutMs, outer).start(args);
}

type CallResult = ToolResultFields & { timedOut?: boolean };

/**
 * One call in flight: the first of its result, its timer, the caller's signal and an error escaping
 * its async context (`escape`) settles it. Every call pays for this, so it is one object with one
 * promise: no closures but the promise's, and the tool's AbortController is made only when the tool
 * reads `ctx.signal` (most function tools never do); one that reads it after the call was aborted
 * gets a signal aborted with the same reason.
 */
class ToolCallRun implements CallScope {
  readonly tool: string;
  ended = false;
  private controller: AbortController | undefined;
  private aborted = false;
  private abortReason: unknown;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private resolve: ((r: CallResult) => void) | undefined;

  constructor(
    readonly spec: ToolSpec,
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal | undefined,
  ) {
    this.tool = spec.name;
  }

  start(args: Record<string, unknown>): Promise<CallResult> {
    const result = new Promise<CallResult>((resolve) => {
      this.resolve = resolve;
    });
    this.timer = setTimeout(onCallTimeout, this.timeoutMs, this);
    // The call object is the listener (`handleEvent`): no closure per call.
    this.outer?.addEventListener('abort', this, { once: true });
    enterCall();
    // The tool runs in the call's async context (see `CallScope`).
    callScope.run(this, startCall, this, args);
    return result;
  }

  /** What the tool is given: its signal (made on first read) and its timeout. */
  context(): ToolCallContext {
    const call = this;
    return {
      get signal() {
        return call.toolSignal();
      },
      timeoutMs: this.timeoutMs,
    };
  }

  /** The AbortSignal the tool is given, made on first use. */
  toolSignal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** Aborts the tool's signal (the first reason wins, as with an AbortController). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.abort(this.outer?.reason);
    this.settle({ status: 'error', error: 'cancelled' });
  }

  timedOut(): void {
    this.abort(new Error(`timed out after ${this.timeoutMs} ms`));
    this.settle({ status: 'error', error: `'${this.spec.name}' timed out after ${this.timeoutMs} ms`, timedOut: true });
  }

  escape(e: unknown): void {
    this.abort(e);
    this.settle({
      status: 'error',
      error: `'${this.spec.name}' failed: ${errorMessage(e)} (thrown outside the call's promise, e.g. from a timer)`,
    });
  }

  returned(value: unknown): void {
    if (this.ended) return; // its late result is dropped
    let fields: ToolResultFields;
    try {
      fields = interpret(value);
    } catch (e) {
      fields = this.failed(e);
    }
    this.settle(fields);
  }

  failed(e: unknown): ToolResultFields {
    return { status: 'error', error: `'${this.spec.name}' failed: ${errorMessage(e)}` };
  }

  /** Ends the call with its first outcome; later ones are dropped. */
  settle(r: CallResult): void {
    if (this.ended) return;
    this.ended = true;
    leaveCall();
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this);
    this.resolve!(r);
  }
}

function onCallTimeout(call: ToolCallRun): void {
  call.timedOut();
}

/** Runs in the call's async context: starts the tool and waits for what it returns. */
function startCall(call: ToolCallRun, args: Record<string, unknown>): void {
  let pending: unknown;
  try {
    pending = call.spec.execute(args, call.context());
  } catch (e) {
    call.settle(call.failed(e));
    return;
  }
  Promise.resolve(pending).then(
    (v) => call.returned(v),
    (e: unknown) => call.settle(call.failed(e)),
  );
}

function interpret(value: unknown): ToolResultFields {
  // A plain return value comes from the tool itself: a live answer.
  const fields: ToolResultFields = isToolResult(value) ? { ...value } : { status: 'ok', output: value, origin: 'live' };
  if (fields.status === 'ok') {
    const plain = toPlainJson(fields.output);
    if (!plain.ok)
      return {
        ...fields,
        status: 'error',
        output: undefined,
        error: `the tool returned something that is not JSON: ${plain.reason}`,
      };
    fields.output = plain.value;
  }
  return fields;
}
