/**
 * The OpenAI wire as the scripted server (openai-server.ts) sees it: the routes, each request as it
 * is recorded, and the replies a test scripts for each route.
 */
export type Route =
  | "chat"
  | "embeddings"
  | "images"
  | "transcriptions"
  | "speech"
  | "videos"
  | "video"
  | "videoContent"
  | "models"

export interface ReceivedFile {
  readonly field: string
  readonly filename: string
  readonly type: string
  readonly size: number
  /** The file's SHA-256 in hex, so a test can tell the bytes arrived whole. */
  readonly sha256: string
}

/** One message of a chat call, as the OpenAI protocol carries it. */
export interface ChatMessage {
  readonly role: string
  /** A string, or an array of parts (`{ type: "text", text }`, an image…); null beside tool calls. */
  readonly content?: unknown
  readonly tool_calls?: ReadonlyArray<{
    readonly id: string
    readonly type?: string
    readonly function: { readonly name: string; readonly arguments: string }
  }>
  readonly tool_call_id?: string
}

/**
 * A request's JSON body, as far as the scripted routes and the tests read it (the fields of
 * OpenAI's chat, embeddings and images requests); any other field is kept, unread. It is the
 * node's own request seen from outside, so it is taken as sent, not checked.
 */
export interface RequestBody {
  readonly model?: unknown
  readonly messages?: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<{
    readonly type: string
    readonly function: { readonly name: string; readonly description?: string; readonly parameters?: unknown }
  }>
  readonly response_format?: {
    readonly type: string
    readonly json_schema?: {
      readonly name?: string
      readonly schema?: Readonly<Record<string, unknown>>
      readonly strict?: boolean
    }
  }
  readonly stream?: boolean
  readonly stream_options?: { readonly include_usage?: boolean }
  readonly input?: unknown
  readonly prompt?: string
  readonly n?: number
  readonly [field: string]: unknown
}

export interface ReceivedRequest {
  readonly route: Route
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  /** The JSON body; for a multipart upload, `fields` holds its text fields instead. */
  readonly body: RequestBody
  /** A multipart upload's text fields (a transcription's `model`, `response_format`…); empty otherwise. */
  readonly fields: Readonly<Record<string, string>>
  readonly files: ReadonlyArray<ReceivedFile>
  /** The body's `model`, the easiest way to tell which tier a call went to. */
  readonly model: string | null
}

/** Refuse with this status; the body is OpenAI's `{ error: { message, type, code } }`. */
export interface ErrorReply {
  readonly error: { readonly status: number; readonly message?: string; readonly headers?: Record<string, string> }
  readonly delayMs?: number
}

export interface ScriptedToolCall {
  readonly id?: string
  readonly name: string
  /** An object is sent as its JSON text; a string as is (so a test can send broken JSON). */
  readonly arguments: unknown
}

export interface ChatReply {
  readonly content?: string | null
  readonly toolCalls?: ReadonlyArray<ScriptedToolCall>
  readonly finishReason?: string
  /** Counted from the text (4 characters a token) when absent. */
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number }
  /** Leave `usage` out of the answer, as some local servers do. */
  readonly omitUsage?: boolean
  /** Before the answer (a stream: before its first byte). */
  readonly delayMs?: number
  /** Between the chunks of a stream. */
  readonly chunkDelayMs?: number
}

export interface EmbeddingsReply {
  /** One vector per input; derived from each input's text when absent. */
  readonly vectors?: ReadonlyArray<ReadonlyArray<number>>
  readonly promptTokens?: number
  readonly delayMs?: number
}

export interface ImagesReply {
  readonly images?: ReadonlyArray<{ readonly b64Json?: string; readonly url?: string; readonly revisedPrompt?: string }>
  /** Tokens billed, as gpt-image models report them; default the prompt's tokens in and 272 out (one small picture). */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number }
  readonly delayMs?: number
}

export interface TranscriptionReply {
  readonly text: string
  /**
   * The audio's length, answered as OpenAI's whisper-1 does (`usage: { type: "duration", seconds }`); left out when
   * absent.
   */
  readonly seconds?: number
  readonly delayMs?: number
}

export interface SpeechReply {
  /** The audio's bytes; by default a short silent clip in the format asked for (speech-audio.ts). */
  readonly audio?: Uint8Array
  readonly delayMs?: number
}

/** A video job as the videos API answers it (`POST /v1/videos`, `GET /v1/videos/:id`). */
export interface VideoJobReply {
  /** Default: "queued" when created, "completed" when asked after. */
  readonly status?: "queued" | "in_progress" | "completed" | "failed"
  /** The seconds made; default the seconds asked for. */
  readonly seconds?: string
  /** Why a failed render failed (the job's `error`). */
  readonly failure?: { readonly code: string; readonly message: string }
  readonly delayMs?: number
}

export interface VideoContentReply {
  readonly video?: Uint8Array
  readonly delayMs?: number
}

export interface ModelsReply {
  readonly ids: ReadonlyArray<string>
}

interface Replies {
  readonly chat: ChatReply
  readonly embeddings: EmbeddingsReply
  readonly images: ImagesReply
  readonly transcriptions: TranscriptionReply
  readonly speech: SpeechReply
  readonly videos: VideoJobReply
  readonly video: VideoJobReply
  readonly videoContent: VideoContentReply
  readonly models: ModelsReply
}

export type Reply<R extends Route> = Replies[R] | ErrorReply
export type Handler<R extends Route> = (request: ReceivedRequest) => Reply<R> | Promise<Reply<R>>
