import { type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import type { SdkLanguageModel } from '../providers/index.js';
import type { MeteredCall, UsageMeter } from './usage-meter.js';
import { currentUsageTag, type UsageTag } from './usage-tag.js';

// The SDK's v3 model types, without depending on @ai-sdk/provider directly.
type V3Model = Parameters<typeof wrapLanguageModel>[0]['model'];
type CallParams = Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0]['params'];
type V3Usage = Awaited<ReturnType<V3Model['doGenerate']>>['usage'];

/**
 * The one place a model call leaves the process, seen from usage: every language model the
 * factory creates goes through here (chat turns, compaction, recall, the judge, Dreaming…).
 * Before the call: the caps (a used-up cap throws `budget_exhausted`, nothing is sent). When
 * the provider reports its usage (the stream's finish part): one ledger line, tagged with the
 * purpose of the async chain that started it. A call already streaming is never cut.
 */
export function meterLanguageModel(
  model: SdkLanguageModel,
  target: { provider: string; model: string },
  meter: UsageMeter,
): SdkLanguageModel {
  // Only v3 models can be wrapped by the SDK; every built-in provider is v3. A v2 plugin model is
  // still guarded by the caps, its tokens are not counted (docs/USAGE.md).
  if (model.specificationVersion !== 'v3') return model;
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    wrapGenerate: async ({ doGenerate, params }) => {
      const tag = tagOf(params.prompt);
      meter.check(tag, target);
      const result = await doGenerate();
      meter.record(callOf(target, result.usage), tag);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const tag = tagOf(params.prompt);
      meter.check(tag, target);
      const result = await doStream();
      let recorded = false;
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            if (part.type === 'finish' && !recorded) {
              recorded = true;
              meter.record(callOf(target, part.usage), tag);
            }
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
  return wrapLanguageModel({ model: model as V3Model, middleware });
}

/** A turn's call that answers tool results is its tool loop. */
function tagOf(prompt: CallParams['prompt']): UsageTag {
  const tag = currentUsageTag();
  if (tag.purpose === 'chat' && prompt.at(-1)?.role === 'tool') return { ...tag, purpose: 'tool_loop' };
  return tag;
}

function callOf(target: { provider: string; model: string }, usage: V3Usage): MeteredCall {
  return {
    provider: target.provider,
    model: target.model,
    inputTokens: usage.inputTokens.total ?? 0,
    outputTokens: usage.outputTokens.total ?? 0,
    cachedInputTokens: usage.inputTokens.cacheRead ?? 0,
  };
}
