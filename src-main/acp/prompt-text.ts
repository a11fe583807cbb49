import type * as acp from '@agentclientprotocol/sdk';

export class PromptContentError extends Error {}

/**
 * An ACP prompt as the one user message Hearth's chat path takes: text as it is, a file the
 * editor attached (an embedded text resource) as a fenced block under its URI, a link as its
 * URI. Images, audio and binary resources are refused with a reason: Hearth's `chat.send`
 * carries text, and initialize did not advertise them.
 */
export function promptText(blocks: readonly acp.ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`[${block.title ?? block.name}](${block.uri})`);
        break;
      case 'resource': {
        const resource = block.resource;
        if (!('text' in resource)) {
          throw new PromptContentError(`binary resource ${resource.uri} is not supported: attach it as text`);
        }
        parts.push(`${resource.uri}:\n\`\`\`\n${resource.text}\n\`\`\``);
        break;
      }
      default:
        throw new PromptContentError(`${block.type} content is not supported: Hearth takes text prompts`);
    }
  }
  const text = parts.join('\n\n');
  if (text.trim() === '') throw new PromptContentError('the prompt is empty: send at least one text block');
  return text;
}
