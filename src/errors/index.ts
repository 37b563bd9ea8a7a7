/** Errors: one class, a closed set of codes, one converter for anything thrown. */
export { ERROR_CODES, EXIT_STATUS, HTTP_STATUS, RETRYABLE, isErrorCode, type ErrorCode } from './codes.js';
export { fromErrorShape, toErrorShape, type ErrorShape } from './error-shape.js';
export {
  FlowScoutError,
  formatLocation,
  isFlowScoutError,
  type ErrorLocation,
  type FlowScoutErrorOptions,
} from './flowscout-error.js';
export { isDiskFull, toFlowScoutError } from './to-flowscout-error.js';
export { errorMessage } from './error-message.js';
