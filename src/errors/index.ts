/** Errors: one class, a closed set of codes, one converter for anything thrown. */
export { ERROR_CODES, EXIT_STATUS, type ErrorCode } from './codes.js';
export {
  FlowScoutError,
  formatLocation,
  isFlowScoutError,
  type ErrorLocation,
  type FlowScoutErrorOptions,
} from './flowscout-error.js';
export { toFlowScoutError } from './to-flowscout-error.js';
export { errorMessage } from './error-message.js';
