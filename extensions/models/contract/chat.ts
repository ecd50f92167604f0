/**
 * What a chat call takes and gives, in the node's own terms (not the SDK's), as Schemas so an actor
 * can carry a conversation in its messages. Tool-call arguments stay the model's JSON text: the
 * skill that runs the tool validates them against its own input schema.
 */
import * as Schema from "effect/Schema"
import type { LlmCall } from "./records.ts"

const JsonSchema = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const ContentPart = Schema.Union(
  Schema.Struct({ type: Schema.Literal("text"), text: Schema.String }),
  /** A page or picture for the model to read: an https URL or a `data:image/...;base64,` URL. */
  Schema.Struct({ type: Schema.Literal("image"), url: Schema.String })
)
export type ContentPart = typeof ContentPart.Type

export const ToolCall = Schema.Struct({ id: Schema.String, name: Schema.String, arguments: Schema.String })
export type ToolCall = typeof ToolCall.Type

export const ChatMessage = Schema.Union(
  Schema.Struct({ role: Schema.Literal("system"), content: Schema.String }),
  Schema.Struct({ role: Schema.Literal("user"), content: Schema.Union(Schema.String, Schema.Array(ContentPart)) }),
  Schema.Struct({
    role: Schema.Literal("assistant"),
    content: Schema.String,
    toolCalls: Schema.optional(Schema.Array(ToolCall))
  }),
  Schema.Struct({ role: Schema.Literal("tool"), toolCallId: Schema.String, content: Schema.String })
)
export type ChatMessage = typeof ChatMessage.Type

export const ToolDefinition = Schema.Struct({
  name: Schema.String,
  description: Schema.optional(Schema.String),
  /** JSON Schema of the arguments. */
  parameters: JsonSchema
})
export type ToolDefinition = typeof ToolDefinition.Type

export const ResponseFormat = Schema.Union(
  /** JSON matching `schema`; `strict` (default true) asks the provider to enforce it. */
  Schema.Struct({
    type: Schema.Literal("json_schema"),
    name: Schema.String,
    schema: JsonSchema,
    strict: Schema.optional(Schema.Boolean)
  }),
  /** Any JSON object. */
  Schema.Struct({ type: Schema.Literal("json_object") })
)
export type ResponseFormat = typeof ResponseFormat.Type

/** Who a call is for and why: recorded with it, and the project's spend ceiling applies when set. */
export interface CallContext {
  /** A short label of the job ("planner", "skill llm.generate", "muse reply"). */
  readonly purpose: string
  readonly beingId?: string | null
  readonly projectId?: string | null
}

export interface ChatRequest extends CallContext {
  readonly messages: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<ToolDefinition>
  readonly responseFormat?: ResponseFormat
  /** The most tokens the answer may take; the provider cuts it there (finishReason "length"). */
  readonly maxTokens?: number
}

export interface ChatResult {
  /** The reply's text; "" when the model only called tools. */
  readonly text: string
  readonly toolCalls: ReadonlyArray<ToolCall>
  /** The provider's reason: "stop", "tool_calls", "length", ... */
  readonly finishReason: string
  readonly call: LlmCall
}

export interface JsonResult {
  readonly value: unknown
  readonly text: string
  readonly call: LlmCall
}

/** A streamed chat: text as it arrives, then the whole result once the call is recorded. */
export type ChatStreamEvent =
  | { readonly type: "delta"; readonly text: string }
  | { readonly type: "done"; readonly result: ChatResult }

export interface EmbedRequest extends CallContext {
  readonly input: string | ReadonlyArray<string>
}

export interface EmbedResult {
  /** One vector per input, in input order. */
  readonly vectors: ReadonlyArray<ReadonlyArray<number>>
  readonly call: LlmCall
}

/** The picture sizes the images API takes from every image model we bind; "auto" lets the model choose. */
export const imageSizes = ["auto", "1024x1024", "1536x1024", "1024x1536"] as const
export type ImageSize = (typeof imageSizes)[number]

export interface ImageRequest extends CallContext {
  /** What to draw. */
  readonly prompt: string
  /** The provider's default when absent. */
  readonly size?: ImageSize
}

export interface ImageResult {
  /** The picture's bytes as base64 (the provider's `b64_json`). */
  readonly b64: string
  /** The prompt as the provider rewrote it, when it says. */
  readonly revisedPrompt: string | null
  readonly call: LlmCall
}

export interface TranscriptionRequest extends CallContext {
  /** The recording's bytes, held in memory: the call sends them from here, never from a file. */
  readonly audio: Uint8Array
  /** A file name whose extension names the format (`recording.webm`): providers read the format from it. */
  readonly filename: string
  readonly mimeType: string
  /** The spoken language (ISO 639-1, "en"), when the caller knows it; the provider detects it otherwise. */
  readonly language: string | null
}

export interface TranscriptionResult {
  readonly text: string
  /** The language the provider names, else the one asked for, else null. */
  readonly language: string | null
  /** The audio's length as the provider reports it; null when it does not (the call is then priced on an estimate). */
  readonly audioSeconds: number | null
  readonly call: LlmCall
}

/** The audio formats the speech API answers in, and the media type each is served as. */
export const speechFormats = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  opus: "audio/ogg",
  aac: "audio/aac",
  flac: "audio/flac"
} as const
export type SpeechFormat = keyof typeof speechFormats

export interface SpeechRequest extends CallContext {
  /** The text to speak; billed by its characters. */
  readonly text: string
  /** The provider's voice name; "alloy" when absent. */
  readonly voice?: string
  /** "mp3" when absent. */
  readonly format?: SpeechFormat
}

export interface SpeechResult {
  /** The spoken audio's bytes, in `format`. */
  readonly audio: Uint8Array
  readonly format: SpeechFormat
  readonly mimeType: string
  readonly call: LlmCall
}

/** The clip lengths and frame sizes the videos API takes. */
export const videoSeconds = [4, 8, 12] as const
export const videoSizes = ["720x1280", "1280x720", "1024x1792", "1792x1024"] as const

export interface VideoRequest extends CallContext {
  /** What to film. */
  readonly prompt: string
  /** The clip's length; 4 when absent. Billed by it. */
  readonly seconds?: (typeof videoSeconds)[number]
  /** The provider's default (720x1280) when absent. */
  readonly size?: (typeof videoSizes)[number]
}

export interface VideoResult {
  /** The finished clip's MP4 bytes, downloaded once the render completed. */
  readonly video: Uint8Array
  readonly mimeType: "video/mp4"
  /** The clip's length as the provider reports it. */
  readonly seconds: number
  readonly size: string
  readonly call: LlmCall
}
