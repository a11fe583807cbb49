import { z } from 'zod';

/**
 * What is always in an agent's prompt. `minimal`: memory lookup only; `coding`: exec, the file
 * tools and memory; `full`: every tool, no loading (each schema paid on every call); `custom`:
 * exactly `tools.core`. Everything else is found with `tools_search` and loaded with `tools_load`.
 */
export const toolProfileSchema = z.enum(['minimal', 'coding', 'full', 'custom']);
export type ToolProfile = z.infer<typeof toolProfileSchema>;

/** The catalogue's keys of a `tools` section (root, `agents.defaults.tools`, `agents.list[].tools`). */
export const toolCatalogueConfigShape = {
  profile: toolProfileSchema.optional(),
  /** Tool names always present on top of the profile's (the whole core with `custom`). */
  core: z.array(z.string().min(1)).optional(),
  /** Tool names the agent never gets, not even through `tools_load`. */
  deny: z.array(z.string().min(1)).optional(),
};

export interface ToolCatalogueSettings {
  profile: ToolProfile;
  core: readonly string[];
  deny: readonly string[];
}

type Slice = { profile?: ToolProfile; core?: readonly string[]; deny?: readonly string[] } | undefined;

export const defaultToolProfile: ToolProfile = 'coding';

/** The first setting found, most specific slice first (the agent's own, then defaults, then root). */
export function resolveToolCatalogueSettings(slices: readonly Slice[]): ToolCatalogueSettings {
  const first = <K extends keyof NonNullable<Slice>>(key: K): NonNullable<Slice>[K] | undefined =>
    slices.find((slice) => slice?.[key] !== undefined)?.[key];
  return {
    profile: first('profile') ?? defaultToolProfile,
    core: first('core') ?? [],
    deny: first('deny') ?? [],
  };
}

const profileCores: Record<Exclude<ToolProfile, 'full' | 'custom'>, readonly string[]> = {
  minimal: ['memory_search', 'memory_get'],
  coding: [
    'exec',
    'read',
    'write',
    'edit',
    // apply_patch (85 tokens of schema) is one tools_load away: write and edit cover most changes,
    // and the default prompt stays under issue 19's 2 000 tokens a turn.
    'list',
    'find',
    'grep',
    'memory_search',
    'memory_get',
    'memory_write',
  ],
};

/** Names in the core of a profile that is not `full` (which has every tool). */
export function profileCoreNames(settings: ToolCatalogueSettings): ReadonlySet<string> {
  const base = settings.profile === 'custom' || settings.profile === 'full' ? [] : profileCores[settings.profile];
  return new Set([...base, ...settings.core]);
}
