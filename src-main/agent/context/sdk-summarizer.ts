import type { LanguageModel } from 'ai';
import { streamCompletion } from '../../providers/index.js';
import type { AgentMessage } from '../messages.js';
import type { Summarizer } from './compaction.js';

/** Characters of one tool result shown to the summarizer: enough to know what happened, not the whole log. */
const TOOL_RESULT_PREVIEW_CHARS = 1_500;

/** The span as a plain transcript: summarizing needs the words, not the provider's message shapes. */
export function renderTranscript(messages: readonly AgentMessage[]): string {
  return messages.map(transcriptLine).join('\n');
}

function transcriptLine(message: AgentMessage): string {
  switch (message.kind) {
    case 'user':
      return `User: ${message.text}`;
    case 'assistant':
      return `Assistant: ${message.text}`;
    case 'tool_call':
      return `Tool call ${message.toolName}: ${JSON.stringify(message.input)}`;
    case 'tool_result':
      return `Tool result ${message.toolName}${message.isError ? ' (error)' : ''}: ${message.output.slice(0, TOOL_RESULT_PREVIEW_CHARS)}`;
    case 'compaction_summary':
      return `Earlier summary:\n${message.summary}`;
    case 'notification':
      return `Notice: ${message.text}`;
    case 'steering':
      return `User (mid-turn): ${message.text}`;
  }
}

/**
 * A summarizer backed by a real model through the AI SDK. Failures propagate: compaction turns
 * them into a "not compacted, retry later" outcome rather than a failed turn.
 */
export function createSdkSummarizer(input: { model: LanguageModel; maxOutputTokens?: number }): Summarizer {
  return async ({ messages, requiredIdentifiers, instructions }, signal) => {
    const required =
      requiredIdentifiers.length > 0
        ? `\n\nRequired identifiers (copy each verbatim):\n${requiredIdentifiers.join('\n')}`
        : '';
    // Streamed like every other call, so the runner's first-token timeout applies to the summary too.
    return streamCompletion({
      model: input.model,
      system: instructions,
      prompt: `${renderTranscript(messages)}${required}`,
      maxOutputTokens: input.maxOutputTokens ?? 1_500,
      signal,
    });
  };
}
