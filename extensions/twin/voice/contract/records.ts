/**
 * Voice on the wire: where a recording would go (NodeSttStatus), the consent a person gives to
 * that destination, and a transcript. Where the spec leaves a value open the choice is written in
 * docs/api.md ("Voice").
 */
import * as Schema from "effect/Schema"

/** The audio part's default cap (the spec's 8 MB) and the setting that changes it. */
export const DEFAULT_MAX_TRANSCRIBE_BYTES = 8 * 1024 * 1024
export const MAX_TRANSCRIBE_BYTES_SETTING = "MAX_TRANSCRIBE_BYTES"
/** What a transcribe body may hold beside its audio: the multipart framing and the `language` field. */
export const TRANSCRIBE_FORM_ALLOWANCE = 16 * 1024

/** The audio formats the transcription APIs read, by the names the spec gives them. */
export const audioFormats = ["webm", "ogg", "mp4", "m4a", "mp3", "wav", "flac"] as const
export const AudioFormat = Schema.Literal(...audioFormats)
export type AudioFormat = typeof AudioFormat.Type

/** Which server a tier is bound to: one on this host, or a provider elsewhere. */
export const SttServer = Schema.Literal("local", "remote")

/**
 * Where audio may reach: the local server only, a remote provider, or the local server first and
 * the remote default when it fails (`LOCAL_LLM_FALLBACK`).
 */
export const SttProvider = Schema.Literal("local", "remote", "local+remote")

export const NodeSttStatus = Schema.Struct({
  /** A transcription can be made: a local server, or a remote provider with a key. */
  available: Schema.Boolean,
  /** Why not, and what to set, when it cannot. */
  reason: Schema.NullOr(Schema.String),
  provider: SttProvider,
  /** The server the transcribe tier itself is bound to, before any fallback. */
  requested: SttServer,
  model: Schema.String,
  baseUrl: Schema.String,
  /** Audio leaves this host: a remote tier, or a local one allowed to fall back to a remote provider. */
  leavesDevice: Schema.Boolean,
  /** Where a recording goes, as a person reads it: the model and the server's host (and the fallback's). */
  destination: Schema.String,
  costsMoney: Schema.Boolean,
  /** The most a minute of audio may cost, in USD, over every server it may reach. */
  usdPerMinute: Schema.Number,
  /** The fingerprint of the destination; a consent names it, and is void once it moves. */
  consentKey: Schema.String,
  /** The caller agreed to this destination (always false when nothing leaves the device: no consent is asked). */
  consented: Schema.Boolean,
  consentedAt: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String)
})
export type NodeSttStatus = typeof NodeSttStatus.Type

export const SttConsentRequest = Schema.Struct({
  consentKey: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
})
export type SttConsentRequest = typeof SttConsentRequest.Type

export const NodeTranscript = Schema.Struct({
  text: Schema.String,
  language: Schema.NullOr(Schema.String),
  audioSeconds: Schema.NullOr(Schema.Number),
  /** The audio part's size in bytes. */
  bytes: Schema.Int,
  format: AudioFormat,
  model: Schema.String,
  /** The server that made this transcript (the remote default when a local one failed and fell back). */
  provider: SttServer,
  /** This recording left the host. */
  leavesDevice: Schema.Boolean,
  /** Where this recording went, in the words of NodeSttStatus.destination. */
  destination: Schema.String,
  costUsd: Schema.Number,
  durationMs: Schema.Int
})
export type NodeTranscript = typeof NodeTranscript.Type
