import { renderPrompt } from './prompt-templates.js';
import type { Choices, LlmNode } from './schema.js';
import { directiveLine, isSynthesizeDirective } from './synthesize-variants.js';

/**
 * An LLM node's prompt as a model reads it, rendered from the node's structured fields: the judge's
 * `question` fills {{question}}, a choosing judge's `choices` fill {{choices}} (one line per option),
 * and a synthesize node's `directives` are appended as one line per directive sentence. The
 * per-request placeholders ({{query}}, {{inputs}}) are left for the policy. Nothing is ever read
 * back from the text: a policy that decides without a model reads the fields themselves.
 *
 * A workflow written before these fields existed has its route table, question or directive
 * sentences in the prompt text itself and none of the fields: it renders as it is written, so a
 * model reads it as before, and the offline policy decides without them.
 */

const ARROW = ' → ';

/** One line per option of a choosing judge, then the line of the value for a request no option fits. */
export function choiceLines(choices: Choices): string[] {
  const lines = choices.options.map((o) => {
    const calls = o.tools.length > 0 ? `calls ${o.tools.join(ARROW)}` : 'makes no call';
    const about = o.about ? ` About: ${o.about.replace(/\s+/g, ' ').replace(/\.+$/, '').trim()}.` : '';
    const asks = o.asks && o.asks.length > 0 ? ` Keywords: ${o.asks.join(', ')}.` : '';
    return `- ${o.value}: ${calls}.${about}${asks}`;
  });
  if (choices.otherwise !== undefined) lines.push(`- ${choices.otherwise}: none of the above.`);
  if (choices.fallback !== undefined)
    lines.push(`When no option clearly fits, answer ${choices.fallback}: such requests did best there in past runs.`);
  return lines;
}

/** The values a choosing judge may answer: every option's, then `otherwise`. */
export function choiceValues(choices: Choices): string[] {
  return [...choices.options.map((o) => o.value), ...(choices.otherwise !== undefined ? [choices.otherwise] : [])];
}

/** The node's prompt with its fields rendered in (see the module comment); {{query}} and {{inputs}} stay. */
export function nodePromptText(node: Pick<LlmNode, 'id' | 'prompt' | 'question' | 'choices' | 'directives'>): string {
  const values: Record<string, string> = {};
  if (node.question !== undefined) values.question = node.question;
  if (node.choices !== undefined) values.choices = choiceLines(node.choices).join('\n');
  const text = Object.keys(values).length > 0 ? renderPrompt(node, values, { partial: true }) : node.prompt;
  const directives = (node.directives ?? []).filter(isSynthesizeDirective);
  return directives.length > 0 ? [text, ...directives.map(directiveLine)].join('\n') : text;
}
