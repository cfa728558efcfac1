/**
 * The normalised reply: what every capture reader yields, whatever the wire format.
 *
 * One `Reply` is one assistant turn (one choice of a Chat Completions response, one Anthropic
 * message, one Responses object, one Claude Code message grouped by `message.id`, ...). Field
 * meanings follow the OpenAI Chat / Responses and Anthropic Messages schemas as their official SDKs
 * define them (openai-node and anthropic-sdk-typescript at the commits in docs/sources.md "API
 * bodies and streams").
 */

/** The capture formats guard reads (each has a spec in the registry, ./formats.ts, which the
 * compiler checks names them all). The `-sse` forms are raw `text/event-stream` bodies; the
 * `-chunks` forms are the same event payloads recorded one JSON value per line. */
export type CaptureFormat =
  | 'openai-chat'
  | 'openai-chat-sse'
  | 'openai-chat-chunks'
  | 'anthropic-messages'
  | 'anthropic-sse'
  | 'anthropic-chunks'
  | 'openai-responses'
  | 'openai-responses-sse'
  | 'openai-responses-chunks'
  | 'claude-code'
  | 'codex-rollout'
  | 'pair-log'
  | 'request-history'
  | 'guard-reply'
  // agent files (./agents/)
  | 'gemini-cli'
  | 'cline-task'
  | 'cline-ui'
  | 'chat-messages'
  | 'openhands'
  | 'swe-agent'
  | 'mini-swe-agent'
  | 'aider'
  | 'aider-llm-history'
  | 'opencode'
  | 'goose'
  // API formats, batch outputs and observability exports (issue 15)
  | 'ollama'
  | 'gemini'
  | 'gemini-sse'
  | 'text-completion'
  | 'text-completion-sse'
  | 'cohere-chat'
  | 'cohere-chat-sse'
  | 'cohere-chat-chunks'
  | 'bedrock-converse'
  | 'bedrock-converse-stream'
  | 'bedrock-invoke-stream'
  | 'openai-batch'
  | 'anthropic-batch'
  | 'litellm'
  | 'otel-genai'
  | 'langfuse'
  | 'har'
  | 'nock'
  | 'vcr'
  | 'vcr-json';


/** A JSON Schema object as a request advertises it (`parameters` / `input_schema`). */
export type JsonSchema = Record<string, unknown>;

/** A tool the request advertised. `schema` is present only when the capture records it. */
export interface AdvertisedTool {
  name: string;
  schema?: JsonSchema;
}

/**
 * The kind of structured block that carried a tool call. `function` covers Chat
 * `tool_calls[].function`, Anthropic `tool_use` and Responses `function_call`; the rest are the
 * non-standard blocks that still run something (they are inspected like any call).
 * `text-command` is a command the model wrote as text that the agent executes as its own call (a
 * fenced block SWE-agent, mini-swe-agent or Aider run in a shell; name `bash`, arguments
 * `{"command": …}`): the format's own call, inspected as a shell call, never a quotation
 * (src/capture/agents/text-command.ts). `text-edit` is a file edit the model wrote as text that the
 * agent applies (Aider's SEARCH/REPLACE blocks `edit_file {file_path, old_string, new_string}`,
 * whole files `write_file {file_path, content}`, diffs and patches `apply_patch {patch}`:
 * src/capture/agents/aider-edits.ts), inspected as a file write.
 */
export type ToolCallKind =
  | 'function'
  | 'custom'
  | 'server_tool_use'
  | 'mcp_tool_use'
  | 'mcp_call'
  | 'shell_call'
  | 'local_shell_call'
  | 'apply_patch_call'
  | 'custom_tool_call'
  | 'text-command'
  | 'text-edit';

/** A structured tool call as captured. */
export interface ToolCall {
  /** The call id (`call_…`, `toolu_…`, Responses `call_id`), or null when the capture has none. */
  id: string | null;
  name: string;
  kind: ToolCallKind;
  /**
   * The arguments exactly as captured. Formats that carry a JSON string (Chat, Responses, Codex)
   * keep it byte for byte; formats that carry an object (Anthropic `input`, guard reply records
   * with an object) hold `JSON.stringify` of it.
   */
  argumentsRaw: string;
  /** The parsed arguments when `argumentsRaw` parses as a JSON object, else null. */
  arguments: Record<string, unknown> | null;
  /** Why `arguments` is null (JSON syntax error, or the value was not an object). */
  argumentsError: string | null;
}

/** Where a reply came from: file path as given (or `-` for stdin) and 1-based line. For SSE,
 * the line where the reply's first event starts. */
export interface SourceLocation {
  file: string;
  line: number;
}

/** One assistant reply, normalised. */
export interface Reply {
  source: SourceLocation;
  format: CaptureFormat;
  /** The record's own id (response id, message id, guard record `id`), if any. */
  id: string | null;
  /** Tools the request advertised; null when the capture does not say. */
  advertised: AdvertisedTool[] | null;
  /** The visible text (reasoning and thinking excluded). */
  text: string;
  /**
   * Offsets in `text` where one content block (or part) ended and the next began, when the text
   * was joined from several: the recovery engine reads no markup across them. Absent for a text
   * of one block.
   */
  textBreaks?: number[];
  /** Reasoning / thinking text, kept apart from `text`; '' when none. */
  reasoning: string;
  toolCalls: ToolCall[];
  /** True when the stream ended before its end marker, or the model stopped on a length limit. */
  truncated: boolean;
  /** Corpus label carried by a guard reply record. */
  label?: 'leak' | 'quotation';
  model?: string;
  finishReason?: string;
  /**
   * Allow marks from harness-written metadata of the record (a guard reply record's
   * `"guard": {"allow": [...]}`), never from reply text: each names a rule id and a reason.
   * Reports show the findings they name as suppressed.
   */
  allow?: Array<{ rule: string; reason: string }>;
}

/** Stable codes for input problems, shown in NDJSON error records and the summary. */
export type CaptureErrorCode =
  | 'INVALID_JSON'
  | 'INVALID_UTF8'
  | 'BINARY_FILE'
  | 'EMPTY_FILE'
  | 'UNKNOWN_FORMAT'
  | 'UNREADABLE'
  | 'TRUNCATED_STREAM'
  | 'STREAM_ERROR'
  | 'LINE_TOO_LONG'
  /** A JSON document (or one element of a top-level array) is larger than the reader's cap. */
  | 'DOCUMENT_TOO_LARGE'
  | 'INVALID_RECORD'
  | 'NO_MATCH'
  /** guard itself failed on one reply (a bug): reported, and the scan goes on. */
  | 'INTERNAL_ERROR'
  /** A reply's string holds a lone UTF-16 surrogate: read, written as U+FFFD in reports (a warning). */
  | 'LONE_SURROGATE'
  /** A tool call's arguments repeat a top-level key: read with the last value, both inspected (a warning). */
  | 'DUPLICATE_KEY'
  /** The file is zstd, xz or bzip2 compressed (gzip is read): decompress it first; not read. */
  | 'COMPRESSED_FILE';

/**
 * An input problem: it names the file and (when known) the 1-based line. `error` means guard
 * could not read part of the input (exit code 2); `warning` means the capture itself records a
 * failure (an API error event inside a stream) and guard read everything there was.
 */
export interface CaptureError {
  file: string;
  line: number | null;
  code: CaptureErrorCode;
  message: string;
  severity: 'error' | 'warning';
}

/** What a reader yields, in input order. `file-end` closes each file with what was seen. */
export type CaptureItem =
  | { kind: 'reply'; reply: Reply }
  | { kind: 'error'; error: CaptureError }
  | { kind: 'file-end'; file: string; formats: CaptureFormat[]; replies: number; errors: number };
