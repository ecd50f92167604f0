/**
 * The `llm` capability's adapter: the node's model tiers as plugins and skills get them. The host
 * implements it over its Models service (extensions/models/adapter.ts), so every call is priced, checked
 * against the spend ceilings and recorded, charged to the being and project of the call the
 * runtime built the adapter for, never to anyone plugin code names.
 */
import type * as Effect from "effect/Effect"
import type { CapabilityRefused } from "./capability-refused.ts"

/** The tiers a plugin may ask for; 'strong' is reserved for the node's planner and QA. */
export const llmTiers = ["cheap", "standard"] as const
export type LlmTier = (typeof llmTiers)[number]

export interface LlmMessage {
  readonly role: "user" | "assistant"
  readonly content: string
}

/** One prompt, or the conversation so far (ending with the user's turn). */
export type LlmPrompt =
  | { readonly prompt: string; readonly messages?: undefined }
  | { readonly messages: ReadonlyArray<LlmMessage>; readonly prompt?: undefined }

export type LlmRequest = LlmPrompt & {
  /** Default 'standard'. */
  readonly tier?: LlmTier
  readonly system?: string
}

export type LlmGenerateRequest = LlmRequest & {
  /** The most tokens the answer may take; the provider cuts it there. */
  readonly maxTokens?: number
}

export interface LlmGenerated {
  readonly text: string
  /** The model that answered. */
  readonly model: string
  readonly costUsd: number
}

export type LlmStructuredRequest = LlmRequest & {
  /** A JSON Schema object (draft-07, or 2019-09 / 2020-12 when its `$schema` says so) the answer must fit. */
  readonly schema: { readonly [key: string]: unknown }
  /** Names the schema to the provider: 1 to 64 letters, digits, `_` or `-`. */
  readonly name: string
}

export interface LlmStructured {
  /** The answer, parsed and valid against the schema. */
  readonly value: unknown
  readonly model: string
  /** Of every call made, the repair included. */
  readonly costUsd: number
  /** The first answer did not fit, and the one repair (told the validator's exact errors) did. */
  readonly repaired: boolean
}

/** The sizes the 'image' tier draws; "auto" lets the model choose. */
export const llmImageSizes = ["auto", "1024x1024", "1536x1024", "1024x1536"] as const

export interface LlmImageRequest {
  readonly prompt: string
  /** The model's default when absent. */
  readonly size?: (typeof llmImageSizes)[number]
}

export interface LlmImage {
  /** The picture as the model drew it (PNG from the image models we bind). */
  readonly data: Uint8Array
  readonly model: string
  readonly costUsd: number
  /** The prompt as the provider rewrote it, when it says. */
  readonly revisedPrompt: string | null
}

/** The audio formats a plugin may ask the 'speech' tier for. */
export const llmSpeechFormats = ["mp3", "wav"] as const

export interface LlmSpeechRequest {
  /** What to say: 1 to 4,096 characters (one speech call), billed by the character. */
  readonly text: string
  /** The provider's voice name; "alloy" when absent. */
  readonly voice?: string
  /** "mp3" when absent. */
  readonly format?: (typeof llmSpeechFormats)[number]
}

export interface LlmSpeech {
  readonly audio: Uint8Array
  /** `audio/mpeg` or `audio/wav`. */
  readonly mimeType: string
  readonly model: string
  readonly costUsd: number
}

export interface LlmTranscribeRequest {
  /** The recording's bytes (at most 8 MB, as the node's own transcription takes). */
  readonly audio: Uint8Array
  /** A name whose extension says the format (`note.webm`): providers read the format from it. */
  readonly filename: string
  /** ISO 639-1 ("en"); detected when absent. */
  readonly language?: string
}

export interface LlmTranscript {
  readonly text: string
  readonly language: string | null
  /** The audio's length as the provider reports it; null when it does not. */
  readonly audioSeconds: number | null
  readonly model: string
  readonly costUsd: number
}

/** The clip lengths and frame sizes the 'video' tier makes. */
export const llmVideoSeconds = [4, 8, 12] as const
export const llmVideoSizes = ["720x1280", "1280x720", "1024x1792", "1792x1024"] as const

export interface LlmVideoRequest {
  readonly prompt: string
  /** 4 when absent; billed by the second. */
  readonly seconds?: (typeof llmVideoSeconds)[number]
  readonly size?: (typeof llmVideoSizes)[number]
}

export interface LlmVideo {
  /** The finished clip's MP4 bytes; the node keeps no copy. */
  readonly data: Uint8Array
  readonly mimeType: "video/mp4"
  readonly seconds: number
  readonly size: string
  readonly model: string
  readonly costUsd: number
}

export interface LlmAdapter {
  /** Text from the model. Refused saying plainly why (no model configured, a spend ceiling, ...). */
  readonly generate: (request: LlmGenerateRequest) => Effect.Effect<LlmGenerated, CapabilityRefused>
  /** JSON that fits `schema`; one repair try, then refused with the validator's errors. */
  readonly structured: (request: LlmStructuredRequest) => Effect.Effect<LlmStructured, CapabilityRefused>
  /**
   * One picture from the node's 'image' tier, charged like every model call. Refused saying why (no image model bound,
   * a ceiling, ...).
   */
  readonly image: (request: LlmImageRequest) => Effect.Effect<LlmImage, CapabilityRefused>
  /** Text spoken by the node's 'speech' tier, charged by the character. */
  readonly speech: (request: LlmSpeechRequest) => Effect.Effect<LlmSpeech, CapabilityRefused>
  /** Audio to text by the node's 'transcribe' tier, charged by the minute. */
  readonly transcribe: (request: LlmTranscribeRequest) => Effect.Effect<LlmTranscript, CapabilityRefused>
  /** A clip from the node's 'video' tier, charged by the second; a render may take minutes. */
  readonly video: (request: LlmVideoRequest) => Effect.Effect<LlmVideo, CapabilityRefused>
  /**
   * The words on a page image (a scanned PDF page) as markdown, read by the node's 'ocr' tier and
   * charged like every model call; null when no 'ocr' model is bound. The host's adapter has it;
   * files.read uses it to read a PDF's text-less pages.
   */
  readonly ocr?: (request: LlmOcrRequest) => Effect.Effect<string | null, CapabilityRefused>
}

export interface LlmOcrRequest {
  /** The page as a PNG. */
  readonly png: Uint8Array
}
