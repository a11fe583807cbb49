/** ws(s)://host/ for the page's own origin: the gateway serves the UI and speaks WebSocket on the same port. */
export function gatewaySocketUrl(location: { protocol: string; host: string }): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/`;
}
