export { AbortedError, isAbortError, throwIfAborted } from './aborted-error.js';
export {
  DeepSearchError,
  type DeepSearchErrorOptions,
  hasErrorMarker,
  isDeepSearchError,
  markError,
} from './deepsearch-error.js';
export { asErrorCode, type ErrorCode, errorCodes } from './error-codes.js';
export {
  AuthenticationError,
  isAuthenticationError,
  isProviderError,
  isRetryableStatus,
  isStructuredOutputError,
  ProviderError,
  type ProviderErrorOptions,
  StructuredOutputError,
  structuredOutputUnsupportedCode,
} from './provider-error.js';
export {
  canBeSecret,
  createRedactor,
  type Redactor,
  redactErrorMessages,
  redactedMarker,
  requestSecrets,
  type Secret,
} from './redact-secrets.js';
export {
  type BackingService,
  isServiceUnavailableError,
  ServiceUnavailableError,
} from './service-unavailable-error.js';
export {
  BlockedUrlError,
  BusyError,
  ConfigError,
  InputError,
  isBlockedUrlError,
  isBusyError,
  isConfigError,
  isInputError,
} from './user-errors.js';
