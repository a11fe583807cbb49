import { ConfigService } from '../config/index.js';

/** hearth.json as the host reads it: every capability's section. */
export type HearthConfigService = ConfigService;

/** Opens hearth.json with every capability's schema (the host's view of the file). */
export function openHearthConfig(options: Parameters<typeof ConfigService.open>[0]): Promise<HearthConfigService> {
  return ConfigService.open(options);
}
