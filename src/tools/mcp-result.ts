import { toolResult, type TaggedToolResult } from './tool-result.js';

/**
 * Maps an MCP `tools/call` result to a tool outcome: `isError` results become error outcomes with
 * their text as the message; structured content is the output when present; otherwise the text
 * items joined by newlines (kept verbatim, not parsed, like recorded responses); other content kinds
 * (images, resources) are kept as their content objects.
 */
export function mapMcpResult(result: Record<string, unknown>): TaggedToolResult {
  if ('toolResult' in result) return toolResult({ status: 'ok', output: result.toolResult, origin: 'live' });
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  const texts = content.filter((c) => c.type === 'text').map((c) => String(c.text ?? ''));
  const allText = texts.length === content.length;
  if (result.isError === true) {
    const message = texts.join('\n').trim() || 'the MCP tool reported an error without a message';
    return toolResult({ status: 'error', error: message, origin: 'live' });
  }
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return toolResult({ status: 'ok', output: result.structuredContent, origin: 'live' });
  }
  if (allText) return toolResult({ status: 'ok', output: texts.join('\n'), origin: 'live' });
  return toolResult({ status: 'ok', output: content, origin: 'live' });
}
