export {
  defaultToolProfile,
  profileCoreNames,
  resolveToolCatalogueSettings,
  type ToolCatalogueSettings,
  type ToolProfile,
  toolCatalogueConfigShape,
  toolProfileSchema,
} from './catalogue-config.js';
export { TOOLS_LOAD, TOOLS_SEARCH } from './catalogue-tools.js';
export { loadedToolNames } from './loaded-tools.js';
export {
  type CatalogueEntry,
  createToolCatalogue,
  oneLine,
  type ToolCatalogue,
  type ToolCatalogueDeps,
  type TurnToolSet,
} from './tool-catalogue.js';
