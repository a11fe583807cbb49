import { errorMessage, HearthError } from '../base/errors.js';
import type { SdkLanguageModel } from './provider-registry.js';

// Each provider kind's SDK (~2.8 MB of JS for all of them) is compiled only once a model of
// that kind is first called, not while the gateway composes: a person uses one or two (#23).

/** The AI SDK's v3 model, the one every built-in SDK returns. */
export type LanguageModelV3 = Extract<SdkLanguageModel, { specificationVersion: 'v3' }>;

/** A provider kind's SDK module, imported on first use. */
export interface ProviderSdk<Module> {
  readonly kind: string;
  readonly packageName: string;
  /** The module once imported, else undefined (so a loaded SDK costs its callers no extra tick). */
  readonly loaded: Module | undefined;
  /** Imports it once; a failed import rejects with ProviderSdkLoadError and the next call tries again. */
  load(): Promise<Module>;
}

/** A provider kind's SDK could not be imported (a broken install): the call fails, the next one retries. */
export class ProviderSdkLoadError extends HearthError {
  constructor(kind: string, packageName: string, cause: unknown) {
    super('unavailable', `the "${kind}" provider's SDK (${packageName}) could not be loaded: ${errorMessage(cause)}`, {
      details: { kind, packageName },
      retryable: true,
      cause,
    });
    this.name = 'ProviderSdkLoadError';
  }
}

export function providerSdk<Module>(
  kind: string,
  packageName: string,
  importSdk: () => Promise<Module>,
): ProviderSdk<Module> {
  let loaded: Module | undefined;
  let pending: Promise<Module> | undefined;
  return {
    kind,
    packageName,
    get loaded() {
      return loaded;
    },
    load() {
      if (loaded) return Promise.resolve(loaded);
      pending ??= importSdk().then(
        (module) => {
          loaded = module;
          return module;
        },
        (error: unknown) => {
          // Not cached: a rejected import would otherwise fail every later call of this kind.
          pending = undefined;
          throw new ProviderSdkLoadError(kind, packageName, error);
        },
      );
      return pending;
    },
  };
}

export interface LazyLanguageModelOptions<Module> {
  sdk: ProviderSdk<Module>;
  /** What the real model reports as `provider` and `modelId`; checked once it is built. */
  provider: string;
  modelId: string;
  /** Builds the real model from the imported SDK (settings were checked before, at createModel). */
  create(sdk: Module): SdkLanguageModel;
}

/**
 * A model that imports its SDK on its first call (`doGenerate`, `doStream`, or awaiting
 * `supportedUrls`, a thenable that loads only when awaited) and then delegates to the real one.
 */
export function lazyLanguageModel<Module>(options: LazyLanguageModelOptions<Module>): LanguageModelV3 {
  const { sdk, provider, modelId } = options;
  let real: LanguageModelV3 | undefined;

  const build = (module: Module): LanguageModelV3 => {
    if (real) return real;
    const model = options.create(module);
    if (model.specificationVersion !== 'v3' || model.provider !== provider || model.modelId !== modelId) {
      // The lazy stand-in answered with other values than the model it stands for (an SDK upgrade).
      throw new HearthError(
        'internal',
        `the "${sdk.kind}" SDK built a ${model.specificationVersion} model "${model.provider}/${model.modelId}", not the v3 "${provider}/${modelId}" expected`,
      );
    }
    real = model;
    return model;
  };
  const resolve = (): LanguageModelV3 | Promise<LanguageModelV3> => {
    if (real) return real;
    const module = sdk.loaded;
    return module ? build(module) : sdk.load().then(build);
  };

  const supportedUrls: PromiseLike<Awaited<LanguageModelV3['supportedUrls']>> = {
    // biome-ignore lint/suspicious/noThenProperty: a PromiseLike on purpose, so the SDK loads only when awaited.
    then: (onFulfilled, onRejected) =>
      Promise.resolve()
        .then(resolve)
        .then((model) => model.supportedUrls)
        .then(onFulfilled, onRejected),
  };

  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    supportedUrls,
    doGenerate: async (callOptions) => (await resolve()).doGenerate(callOptions),
    doStream: async (callOptions) => (await resolve()).doStream(callOptions),
  };
}
