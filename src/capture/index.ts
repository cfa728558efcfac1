/**
 * The capture layer's public API: normalised types, the capture reader every command uses, input
 * expansion, and the stream accumulators for callers that hold event payloads themselves.
 */

export type {
  AdvertisedTool,
  CaptureError,
  CaptureErrorCode,
  CaptureFormat,
  CaptureItem,
  JsonSchema,
  Reply,
  SourceLocation,
  ToolCall,
  ToolCallKind,
} from './types.js';
export {
  CAPTURE_FILE_NAMES,
  CAPTURE_FORMATS,
  CAPTURE_FORMAT_SPECS,
  formatSpec,
  isForcible,
  sniffRecordFormat,
  type CaptureFormatSpec,
  type RecordFormatSpec,
  type RecordFormatReader,
  type SseFormatSpec,
  type TextFormatReader,
  type TextFormatSpec,
} from './formats.js';
export { DEFAULT_MAX_DOCUMENT_BYTES, readCapture, readCaptureBatches, type ReadOptions } from './read.js';
export { CAPTURE_EXTENSIONS, expandInputs, NODE_INPUT_FS, type InputFs } from './files.js';
export { DEFAULT_MAX_LINE_BYTES, readLineBatches, readLines, type Line, type LineReaderOptions } from './lines.js';
export {
  advertisedFromRequest,
  advertisedTool,
  ARGUMENTS_NOT_RECORDED,
  argumentsNotRecorded,
  ARGUMENTS_TOO_DEEP,
  argumentsTooDeep,
  argumentsUnderUnreadKey,
  argumentsUnread,
  ARGUMENTS_UNDER_UNREAD_KEY,
  jsonDepthExceeds,
  makeToolCall,
  MAX_ARGUMENT_DEPTH,
  parseArguments,
} from './toolcall.js';
export { CappedReports, MAX_LINE_REPORTS } from './capped.js';
export {
  CHUNKS_FORMAT,
  createStreamAccumulator,
  SSE_FORMAT,
  sniffStreamPayload,
  type StreamAccumulator,
  type StreamApi,
  type CaptureStreamApi,
  type StreamContext,
  type StreamOutput,
} from './streams/index.js';
export { parseSseText, readSseLines, SseLineReader } from './sse.js';
