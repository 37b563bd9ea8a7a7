/**
 * The tool contract. A tool is described by data (name, description, JSON-Schema input) and executed
 * through a registry built from sources (functions, MCP servers, replay of recorded responses).
 * Type-only: the implementations live in `tools/`; `records/` (the importers) and `tools/` both import it from here.
 */

/** A JSON Schema object (a tool's input schema is always `{ type: 'object', properties, required }`). */
export type JsonSchema = Record<string, unknown>;

/** What a policy sees of a tool when it selects one and fills its arguments. */
export interface ToolDescriptor {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface ToolCallContext {
  signal?: AbortSignal;
  /** Per-call timeout; the registry turns an overrun into an error outcome. */
  timeoutMs?: number;
}

/** A tool the registry can run: a descriptor plus `execute`. Throwing is allowed; the registry catches it. */
export interface ToolSpec extends ToolDescriptor {
  execute(args: Record<string, unknown>, ctx: ToolCallContext): Promise<unknown>;
  /**
   * Optional: true for arguments the source knows the real tool accepted — a replay source's
   * recorded successful calls. The registry admits them even when they fail the input schema,
   * because imported schemas are often stricter than the API they describe (TRAJECT-Bench records
   * pass `"1"` to a parameter typed BOOLEAN, and the live API answered).
   */
  vouchesFor?(args: Record<string, unknown>): boolean;
  /**
   * Optional: what calling the tool does, when its source knows it (an MCP server's tool
   * annotations, `defineTool({ effect })`). The tool config can override it (`effects`).
   */
  effect?: DeclaredEffect;
  /** True for tools that answer from recorded responses: they never touch anything live. */
  replay?: boolean;
}

/**
 * What a call to a tool does to the world: `read` changes nothing, `write` changes something,
 * `destructive` changes something that cannot be taken back (cancel, delete, send).
 */
export type ToolEffect = 'read' | 'write' | 'destructive';

/** An effect a tool's source or the user declared, and where it was declared. */
export interface DeclaredEffect {
  effect: ToolEffect;
  /** Calling it twice with the same arguments does no more than calling it once. */
  idempotent?: boolean;
  /** It reaches outside a closed system (MCP `openWorldHint`). */
  openWorld?: boolean;
  /** Where the effect was read, for `flowscout tools` (e.g. "MCP annotations", "tool config"). */
  from: string;
}

/** A tool's effect as a registry resolved it: declared, or the default of its kind. */
export interface ToolEffects {
  effect: ToolEffect;
  idempotent: boolean;
  openWorld?: boolean;
  /** False for replay tools (recorded responses): nothing live is touched, whatever the effect. */
  live: boolean;
  /** False when nobody said: a live tool's unknown effect counts as `write`. */
  declared: boolean;
  /** Where the effect came from ("MCP annotations", "tool config", "not declared (counted as write)", …). */
  from: string;
}

/**
 * Marks the observation of a destructive call withheld for approval (runtime/grounding.ts writes
 * it; an answer says such a call awaits approval instead of calling it failed).
 */
export const PENDING_PREFIX = 'not run: destructive call awaiting approval';

/** True for the error of a call that was not made because it awaits approval. */
export function awaitsApproval(error: string | undefined): boolean {
  return error?.startsWith(PENDING_PREFIX) === true;
}

/** Where a tool's answer came from. */
export type ToolOrigin = 'live' | 'replay' | 'simulated';

/** The result of one call through the registry. Never thrown: failures are `status: 'error'`. */
export interface ToolCallOutcome {
  tool: string;
  args: Record<string, unknown>;
  status: 'ok' | 'error';
  output?: unknown;
  error?: string;
  durationMs: number;
  origin?: ToolOrigin;
}

/** Counters a registry keeps for reporting (replay hit rate above all). */
export interface ToolStats {
  calls: number;
  errors: number;
  timeouts: number;
  replayHits: number;
  replayMisses: number;
  simulated: number;
}

/** The tools T of a run. */
export interface ToolRegistry {
  list(): ToolDescriptor[];
  get(name: string): ToolDescriptor | undefined;
  /** Validates `args` against the input schema, runs the tool, and never throws. */
  call(name: string, args: Record<string, unknown>, ctx?: ToolCallContext): Promise<ToolCallOutcome>;
  stats(): ToolStats;
  /** The tool's effect (read / write / destructive, live or replayed) and where it came from; undefined for an unknown name. */
  effectOf(name: string): ToolEffects | undefined;
  /** Closes MCP connections and other resources. */
  close(): Promise<void>;
}

/**
 * A group of tools from one source that shares a resource (an MCP connection): the registry closes
 * it once, when the registry itself is closed.
 */
export interface ToolSet {
  /** The source's name, used in messages (e.g. the MCP server name from the config). */
  name: string;
  tools: ToolSpec[];
  close?(): Promise<void>;
}
