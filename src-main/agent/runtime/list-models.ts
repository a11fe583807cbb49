import {
  type AuthProfileManager,
  formatModelRef,
  type ModelCatalog,
  type ModelFactory,
  type ModelSelection,
  parseModelRef,
} from '../../providers/index.js';

export interface ModelRowView {
  id: string;
  name: string;
  provider: string;
  contextWindow: number;
  maxOutputTokens: number;
  available: boolean;
}

/**
 * What models.list shows: every catalog model of the providers in play (configured, with a
 * profile, or named in the model selection) plus the selected models themselves.
 */
export function listModelRows(input: {
  models: ModelFactory;
  catalog: ModelCatalog;
  auth: AuthProfileManager;
  selection: ModelSelection | undefined;
  provider?: string;
}): ModelRowView[] {
  const selected = input.selection ? [input.selection.primary, ...input.selection.fallbacks] : [];
  const selectedRefs = selected.flatMap((ref) => {
    try {
      return [parseModelRef(ref)];
    } catch {
      return [];
    }
  });
  const providerIds = new Set([...input.models.configuredProviderIds(), ...selectedRefs.map((r) => r.provider)]);
  const available = (provider: string) => {
    try {
      const { service } = input.models.provider(provider);
      return !service.requiresCredential || input.auth.order(provider).length > 0;
    } catch {
      return false;
    }
  };
  const rows = new Map<string, ModelRowView>();
  for (const entry of input.catalog.list([...providerIds])) {
    rows.set(entry.id, { ...entry, available: available(entry.provider) });
  }
  for (const ref of selectedRefs) {
    const id = formatModelRef(ref);
    if (rows.has(id)) continue;
    const limits = input.catalog.limits(ref);
    rows.set(id, {
      id,
      name: limits.name ?? ref.model,
      provider: ref.provider,
      contextWindow: limits.contextWindow,
      maxOutputTokens: limits.maxOutputTokens,
      available: available(ref.provider),
    });
  }
  return [...rows.values()].filter((row) => !input.provider || row.provider === input.provider);
}
