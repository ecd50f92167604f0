/**
 * The Models service as the rest of the node sees it: every model call goes through it. The tag
 * and its shape live in the contract so an actor (a project run) can call models without
 * importing the extension that implements them (extensions/models/models.ts provides the layer).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type {
  ChatRequest,
  ChatResult,
  ChatStreamEvent,
  EmbedRequest,
  EmbedResult,
  ImageRequest,
  ImageResult,
  JsonResult,
  ResponseFormat,
  SpeechRequest,
  SpeechResult,
  TranscriptionRequest,
  TranscriptionResult,
  VideoRequest,
  VideoResult
} from "./chat.ts"
import type { ModelCallFailed, ModelReplyNotJson, ModelsUnavailable, SpendCeilingReached } from "./errors.ts"
import type { ChatTier } from "./records.ts"

export type CallFailure = ModelsUnavailable | ModelCallFailed | SpendCeilingReached

export interface ModelsShape {
  /** One chat completion on the tier's binding, priced, checked against the ceilings and recorded. */
  readonly chat: (tier: ChatTier, request: ChatRequest) => Effect.Effect<ChatResult, CallFailure>
  /** A chat asked for JSON, parsed; a reply that is not JSON fails with `ModelReplyNotJson`. */
  readonly chatJson: (
    tier: ChatTier,
    request: ChatRequest & { readonly responseFormat: ResponseFormat }
  ) => Effect.Effect<JsonResult, CallFailure | ModelReplyNotJson>
  /** A streamed chat: deltas as they arrive, then the recorded result. */
  readonly chatStream: (tier: ChatTier, request: ChatRequest) => Stream.Stream<ChatStreamEvent, CallFailure>
  readonly embed: (request: EmbedRequest) => Effect.Effect<EmbedResult, CallFailure>
  /** One picture on the 'image' tier (the images API, answered as base64), priced by its tokens and recorded. */
  readonly image: (request: ImageRequest) => Effect.Effect<ImageResult, CallFailure>
  /** Audio to text on the 'transcribe' tier (the audio transcriptions API), priced by the minute and recorded. */
  readonly transcribe: (request: TranscriptionRequest) => Effect.Effect<TranscriptionResult, CallFailure>
  /** Text to audio on the 'speech' tier (the audio speech API), priced by the character and recorded. */
  readonly speech: (request: SpeechRequest) => Effect.Effect<SpeechResult, CallFailure>
  /** A clip on the 'video' tier (the videos API: create, poll, download), priced by the second and recorded. */
  readonly video: (request: VideoRequest) => Effect.Effect<VideoResult, CallFailure>
}

export class Models extends Context.Tag("models/Models")<Models, ModelsShape>() {}
