// base's common pieces the renderer needs (it imports protocol only).
export type { Disposable } from '../base/disposable.js';
export { Emitter, type Event } from '../base/emitter.js';
export { assertNever } from '../base/errors.js';
export {
  type ApprovalMarker,
  type ApprovalMarkerDecision,
  formatApprovalMarker,
  readApprovalMarker,
} from './approval-marker.js';
export {
  type AuthMethod,
  type ClientId,
  type ClientMode,
  type ConnectChallenge,
  type ConnectParams,
  clientIds,
  clientModes,
  connectParamsSchema,
  gatewayPolicyDefaults,
  type HelloOk,
  MINIMUM_PROBE_PROTOCOL,
  PROTOCOL_VERSION,
  type PresenceEntry,
} from './connect.js';
export {
  type ChannelDeliveryTarget,
  type DeliveryOutcome,
  type DeliveryTarget,
  deliveryTextSchema,
  formatDeliveryTarget,
  parseDeliveryTarget,
} from './delivery-target.js';
export {
  base64Decode,
  base64UrlEncode,
  buildDeviceAuthPayloadV2,
  buildDeviceAuthPayloadV3,
  bytesToHex,
  type DeviceAuthFields,
} from './device-auth.js';
export {
  closeCodes,
  type DetailCode,
  type ErrorCode,
  errorCodes,
  GatewayError,
  invalidRequest,
  notFound,
  unavailable,
  type WireError,
} from './errors.js';
export {
  type AgentEvent,
  type AgentLifecycleData,
  type AgentStreamPart,
  type AgentToolData,
  type ApprovalDecisionName,
  type AuthProfilesChangedEvent,
  type CanvasChangedEvent,
  type ChannelsChangedEvent,
  type ChatEvent,
  type ChatEventMessage,
  type ChatEventState,
  type DevicePairRequestedEvent,
  type DevicePairResolvedEvent,
  type DreamsChangedEvent,
  type EventAudience,
  type EventName,
  type EventPayloads,
  type EventSink,
  type ExecApprovalResolvedEvent,
  eventAudience,
  eventNames,
  type MemoryChangedEvent,
  type SessionsChangedEvent,
  type TerminalExitEvent,
  type TerminalOutputEvent,
  type TokenUsage,
} from './events.js';
export {
  type ClientFrame,
  type EventFrame,
  formatIssues,
  type ParsedClientFrame,
  parseClientFrame,
  parseClientFrameValue,
  type RequestFrame,
  type ResponseFrame,
  type ServerFrame,
  type StateVersion,
  serverFrameSchema,
} from './frames.js';
export {
  type ImportReasonCode,
  type ImportReasonParams,
  type ImportReasonParamsByCode,
  importReasonCodes,
  isImportReasonCode,
} from './import-reason-codes.js';
export {
  isMethodName,
  type MethodName,
  type MethodParams,
  type MethodParsedParams,
  type MethodResult,
  type MethodTable,
  methodTable,
} from './method-table.js';
export { type MethodSpec, method } from './methods/define.js';
export {
  type ApprovalReason,
  type ApprovalReasonCode,
  approvalReasonCodes,
  type ExecApprovalView,
  isApprovalReasonCode,
  type ReceivedApprovalReason,
} from './methods/exec.js';
export {
  awsAccessKeyIdPattern,
  awsRegionPattern,
  azureApiVersionPattern,
  azureDeploymentPattern,
  azureResourcePattern,
} from './provider-setup-fields.js';
export {
  expandScopes,
  fullOperatorScopes,
  hasScope,
  holdsScopes,
  isScope,
  operatorScopes,
  type Role,
  type Scope,
  scopesNotHeld,
} from './scopes.js';
export { decodeSetupCode, encodeSetupCode, type SetupCode, SetupCodeError, setupLink } from './setup-code.js';
