export { type BackoffPolicy, backoffDelay, defaultBackoff } from './backoff.js';
export { type ConnectionState, type ConnectionStatus, isTerminalConnectError } from './connection-state.js';
export { GatewayClient, type GatewayClientOptions } from './gateway-client.js';
export { createLoopbackPair, type LoopbackPair, type LoopbackPeer } from './loopback-transport.js';
export type { RequestOptions, RequestParams } from './request-options.js';
export type { Transport, TransportCloseInfo, TransportFactory } from './transport.js';
export { createWebSocketTransport, type WebSocketConstructor, type WebSocketLike } from './websocket-transport.js';
