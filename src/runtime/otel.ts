import { context as otelContext, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { Workflow, WorkflowNode } from '../graph/schema.js';
import type { NodeObservation } from './trace.js';

/**
 * Optional OpenTelemetry spans, following the GenAI semantic conventions: one `invoke_agent` span per
 * workflow run and, under it, one span per executed node — `chat` for LLM nodes and `execute_tool`
 * for tool nodes — with `gen_ai.*` attributes (operation, model, tool name, token usage). Only called
 * when the user passed a tracer, so a run without one creates nothing.
 */

/** Starts the run's `invoke_agent <workflow>` span. */
export function startRunSpan(
  tracer: Tracer,
  workflow: Workflow,
  policy: { id: string; label: string },
  recordId?: string,
): Span {
  return tracer.startSpan(`invoke_agent ${workflow.name}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': workflow.name,
      'flowscout.policy.id': policy.id,
      'flowscout.policy.label': policy.label,
      ...(recordId !== undefined ? { 'flowscout.record.id': recordId } : {}),
    },
  });
}

/** Starts a node's span as a child of the run span. */
export function startNodeSpan(tracer: Tracer, parent: Span, node: WorkflowNode): Span {
  const ctx = trace.setSpan(otelContext.active(), parent);
  const attributes =
    node.kind === 'llm'
      ? {
          'gen_ai.operation.name': 'chat',
          'flowscout.node.id': node.id,
          'flowscout.node.role': node.role,
          ...(node.model ? { 'gen_ai.request.model': node.model } : {}),
        }
      : { 'gen_ai.operation.name': 'execute_tool', 'flowscout.node.id': node.id };
  const name = node.kind === 'llm' ? `chat ${node.model ?? node.id}` : `execute_tool ${node.id}`;
  return tracer.startSpan(name, { kind: node.kind === 'llm' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, ctx);
}

/** Records a node's outcome on its span and ends it. */
export function endNodeSpan(span: Span, obs: NodeObservation): void {
  span.setAttribute('flowscout.node.status', obs.status);
  span.setAttribute('flowscout.node.attempts', obs.attempts);
  if (obs.cached) span.setAttribute('flowscout.node.cached', true);
  if (obs.kind === 'llm') {
    if (obs.model) {
      span.setAttribute('gen_ai.request.model', obs.model);
      span.updateName(`chat ${obs.model}`);
    }
  } else {
    const tools = [...new Set((obs.calls ?? []).map((c) => c.tool))];
    if (tools.length > 0) {
      span.setAttribute('gen_ai.tool.name', tools.join(','));
      span.updateName(`execute_tool ${tools.join(',')}`);
    }
    span.setAttribute('flowscout.tool.calls', obs.calls?.length ?? 0);
    if (obs.model) span.setAttribute('gen_ai.request.model', obs.model);
  }
  if (obs.usage) {
    span.setAttribute('gen_ai.usage.input_tokens', obs.usage.inputTokens);
    span.setAttribute('gen_ai.usage.output_tokens', obs.usage.outputTokens);
  }
  if (obs.status === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: obs.error ?? 'failed' });
  span.end();
}

/** Records the run's outcome and totals on its span and ends it. */
export function endRunSpan(
  span: Span,
  status: 'ok' | 'error',
  error: string | undefined,
  totals: { inputTokens: number; outputTokens: number; toolCalls: number },
): void {
  span.setAttribute('gen_ai.usage.input_tokens', totals.inputTokens);
  span.setAttribute('gen_ai.usage.output_tokens', totals.outputTokens);
  span.setAttribute('flowscout.tool.calls', totals.toolCalls);
  if (status === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: error ?? 'failed' });
  span.end();
}
