/**
 * What OpenClaw's Control UI fetches from `<base>/control-ui-config.json` before it connects
 * (its docs: web/control-ui/connect-and-pair.md, "Runtime config endpoint"): the assistant's
 * name and the switches of optional surfaces. Nothing in it is secret, so unlike OpenClaw's
 * gateway Hearth serves it without HTTP auth; the socket it leads to still needs the token.
 */
export const CONTROL_UI_CONFIG_PATHS = new Set([
  '/control-ui-config.json',
  // The older and the namespaced spellings the same bundle may ask for.
  '/__openclaw/control-ui-config.json',
  '/__openclaw__/control-ui-config.json',
]);

export function controlUiConfig(options: { version: string; assistantName?: string }) {
  const assistantName = options.assistantName ?? 'Hearth';
  return {
    basePath: '',
    assistantName,
    assistantAvatar: assistantName.slice(0, 1).toUpperCase(),
    assistantAvatarSource: 'default',
    assistantAvatarStatus: 'none',
    serverVersion: options.version,
    // Frames run with scripts but no same-origin rights; Hearth fetches nothing on the page's behalf.
    embedSandbox: 'scripts',
    allowExternalEmbedUrls: false,
    automaticallyFetchFavicons: false,
    communityInvite: false,
    terminalEnabled: true,
    cliAgentsEnabled: false,
    pluginAssetsRequireAuth: true,
    pluginFrameGrants: [],
  };
}
