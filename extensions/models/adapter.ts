/**
 * The `llm` capability as plugins and skills get it, over the node's Models: each adapter is
 * built for one call's scope, so its calls are recorded (and held to the project's ceiling)
 * against that being and project, with the skill (or plugin) as their purpose. Only the 'cheap'
 * and 'standard' tiers. `structured` checks the answer against the caller's JSON Schema and gives
 * the model one repair, told the validator's exact errors, so every plugin gets valid JSON or a
 * plain refusal, not only the llm.structured skill. `image`, `speech`, `transcribe` and `video`
 * reach their own tiers under the same ceilings and ledger.
 */
import * as Effect from "effect/Effect"
import {
  refused,
  refusedUnlessChecked,
  refusedUnlessResolved,
  refusedWithMessage
} from "../../kernel/extensions/capability-refused.ts"
import type { CallScope, PluginIdentity } from "../../kernel/extensions/context.ts"
import {
  llmImageSizes,
  llmSpeechFormats,
  llmTiers,
  llmVideoSeconds,
  llmVideoSizes,
  type LlmAdapter,
  type LlmMessage,
  type LlmRequest,
  type LlmTier
} from "../../kernel/extensions/llm.ts"
import type { ChatMessage } from "./contract/chat.ts"
import { Models } from "./contract/models.ts"
import { compileJsonSchema, type SchemaCheck } from "../../kernel/json-schema.ts"
import { readPageImage } from "./ocr.ts"

const defaultTier: LlmTier = "standard"
const schemaName = /^[A-Za-z0-9_-]{1,64}$/

// Plugin code may be plain JavaScript, so what the adapter's types promise is checked, plainly.

const tierOf = (tier: unknown): LlmTier => {
  if (tier === undefined) return defaultTier
  if ((llmTiers as ReadonlyArray<unknown>).includes(tier)) return tier as LlmTier
  throw new Error(
    `The '${String(tier)}' tier is not for plugins and skills: ask for 'cheap' or 'standard' ('strong' is reserved for the planner and QA).`
  )
}

const isTurn = (turn: unknown): turn is LlmMessage =>
  typeof turn === "object" &&
  turn !== null &&
  ((turn as LlmMessage).role === "user" || (turn as LlmMessage).role === "assistant") &&
  typeof (turn as LlmMessage).content === "string"

const conversationOf = (request: LlmRequest): Array<ChatMessage> => {
  const turns: unknown =
    typeof request.prompt === "string" ? [{ role: "user", content: request.prompt }] : request.messages
  if (!Array.isArray(turns) || turns.length === 0 || !turns.every(isTurn)) {
    throw new Error(
      "Give the model a prompt (a string) or messages (a non-empty list of { role: 'user' | 'assistant', content })."
    )
  }
  if (request.system !== undefined && typeof request.system !== "string") throw new Error("system must be a string.")
  const system: Array<ChatMessage> =
    request.system === undefined || request.system === "" ? [] : [{ role: "system", content: request.system }]
  return [...system, ...turns.map(({ role, content }) => ({ role, content }))]
}

const maxTokensOf = (maxTokens: unknown) => {
  if (maxTokens === undefined) return {}
  if (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)
    throw new Error("maxTokens must be a whole number of at least 1.")
  return { maxTokens: maxTokens as number }
}

/** One speech call's limit on its text, and the recording size the node's own transcription takes. */
const maxSpeechChars = 4096
const maxAudioBytes = 8 * 1024 * 1024
const audioExtensions = ["webm", "ogg", "mp4", "m4a", "mp3", "wav", "flac", "mpeg", "mpga", "oga"]
const audioTypes: Readonly<Record<string, string>> = {
  webm: "audio/webm",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  mp4: "audio/mp4",
  m4a: "audio/mp4",
  mp3: "audio/mpeg",
  mpeg: "audio/mpeg",
  mpga: "audio/mpeg",
  wav: "audio/wav",
  flac: "audio/flac"
}

const oneOf = <A>(values: ReadonlyArray<A>, value: unknown, what: string): value is A => {
  if (value === undefined || values.includes(value as A)) return true
  throw new Error(`${what} must be one of ${values.join(", ")}.`)
}

const speechOf = (request: { readonly text?: unknown; readonly voice?: unknown; readonly format?: unknown }) => {
  if (typeof request.text !== "string" || request.text.trim() === "" || request.text.length > maxSpeechChars) {
    throw new Error(`Say what to speak: text must be 1 to ${maxSpeechChars} characters.`)
  }
  if (
    request.voice !== undefined &&
    (typeof request.voice !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(request.voice))
  ) {
    throw new Error("voice must be a voice name: 1 to 64 letters, digits, _ or -.")
  }
  oneOf(llmSpeechFormats, request.format, "format")
  return {
    text: request.text,
    ...(request.voice === undefined ? {} : { voice: request.voice as string }),
    ...(request.format === undefined ? {} : { format: request.format as (typeof llmSpeechFormats)[number] })
  }
}

const recordingOf = (request: {
  readonly audio?: unknown
  readonly filename?: unknown
  readonly language?: unknown
}) => {
  if (
    !(request.audio instanceof Uint8Array) ||
    request.audio.byteLength === 0 ||
    request.audio.byteLength > maxAudioBytes
  ) {
    throw new Error("audio must be the recording's bytes (a Uint8Array), 1 byte to 8 MB.")
  }
  const extension = typeof request.filename === "string" ? (request.filename.split(".").pop()?.toLowerCase() ?? "") : ""
  if (typeof request.filename !== "string" || request.filename.length > 200 || !audioExtensions.includes(extension)) {
    throw new Error(`filename must end in the recording's format: .${audioExtensions.join(", .")}.`)
  }
  if (
    request.language !== undefined &&
    (typeof request.language !== "string" || !/^[a-z]{2}$/.test(request.language))
  ) {
    throw new Error('language must be an ISO 639-1 code such as "en".')
  }
  return {
    audio: request.audio,
    filename: request.filename,
    mimeType: audioTypes[extension]!,
    language: typeof request.language === "string" ? request.language : null
  }
}

const verdictOf = (
  text: string,
  check: SchemaCheck
): { readonly value: unknown; readonly errors: ReadonlyArray<string> } => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { value: undefined, errors: ["(root) is not JSON: the answer must be JSON text alone"] }
  }
  return { value, errors: check(value) }
}

const repairPrompt = (name: string, errors: ReadonlyArray<string>) =>
  `That answer does not fit the JSON Schema "${name}". The validator found:\n${errors.map((error) => `- ${error}`).join("\n")}\n` +
  "Answer again with only the corrected JSON."

export const llmAdapterFactory = Effect.gen(function* () {
  const models = yield* Models

  return (plugin: PluginIdentity, scope: CallScope): LlmAdapter => {
    const charged = {
      purpose: scope.contribution === null ? `plugin ${plugin.id}` : `skill ${scope.contribution}`,
      beingId: scope.beingId,
      projectId: scope.projectId
    }
    return {
      generate: (request) =>
        Effect.gen(function* () {
          const [tier, messages, maxTokens] = yield* refusedUnlessChecked(
            () => [tierOf(request.tier), conversationOf(request), maxTokensOf(request.maxTokens)] as const
          )
          const result = yield* refusedWithMessage(models.chat(tier, { ...charged, messages, ...maxTokens }))
          return { text: result.text, model: result.call.model, costUsd: result.call.costUsd }
        }),
      structured: (request) =>
        Effect.gen(function* () {
          const [tier, conversation] = yield* refusedUnlessChecked(() => {
            const checked = [tierOf(request.tier), conversationOf(request)] as const
            if (typeof request.name !== "string" || !schemaName.test(request.name)) {
              throw new Error("Name the schema with 1 to 64 letters, digits, _ or -.")
            }
            if (typeof request.schema !== "object" || request.schema === null || Array.isArray(request.schema)) {
              throw new Error("The schema must be a JSON Schema object.")
            }
            return checked
          })
          const check = yield* refusedUnlessResolved(() => compileJsonSchema(request.schema))
          // Not strict: a provider's strict mode accepts only a subset of JSON Schema, and the answer is checked here
          // anyway.
          const responseFormat = {
            type: "json_schema",
            name: request.name,
            schema: request.schema,
            strict: false
          } as const
          const ask = (messages: ReadonlyArray<ChatMessage>) =>
            refusedWithMessage(models.chat(tier, { ...charged, messages, responseFormat }))

          const first = yield* ask(conversation)
          const answered = verdictOf(first.text, check)
          if (answered.errors.length === 0) {
            return { value: answered.value, model: first.call.model, costUsd: first.call.costUsd, repaired: false }
          }
          const second = yield* ask([
            ...conversation,
            { role: "assistant", content: first.text },
            { role: "user", content: repairPrompt(request.name, answered.errors) }
          ])
          const repaired = verdictOf(second.text, check)
          if (repaired.errors.length > 0) {
            return yield* refused(
              `The model's answer does not fit the schema, even after one repair: ${repaired.errors.join("; ")}.`
            )
          }
          return {
            value: repaired.value,
            model: second.call.model,
            costUsd: first.call.costUsd + second.call.costUsd,
            repaired: true
          }
        }),
      image: (request) =>
        Effect.gen(function* () {
          if (typeof request.prompt !== "string" || request.prompt.trim() === "")
            return yield* refused("Say what to draw: prompt must be a non-empty string.")
          if (request.size !== undefined && !(llmImageSizes as ReadonlyArray<unknown>).includes(request.size)) {
            return yield* refused(`size must be one of ${llmImageSizes.join(", ")}.`)
          }
          const size = request.size === undefined ? {} : { size: request.size }
          const result = yield* refusedWithMessage(models.image({ ...charged, prompt: request.prompt, ...size }))
          return {
            data: new Uint8Array(Buffer.from(result.b64, "base64")),
            model: result.call.model,
            costUsd: result.call.costUsd,
            revisedPrompt: result.revisedPrompt
          }
        }),
      speech: (request) =>
        Effect.gen(function* () {
          const speech = yield* refusedUnlessChecked(() => speechOf(request))
          const result = yield* refusedWithMessage(models.speech({ ...charged, ...speech }))
          return {
            audio: result.audio,
            mimeType: result.mimeType,
            model: result.call.model,
            costUsd: result.call.costUsd
          }
        }),
      transcribe: (request) =>
        Effect.gen(function* () {
          const recording = yield* refusedUnlessChecked(() => recordingOf(request))
          const result = yield* refusedWithMessage(models.transcribe({ ...charged, ...recording }))
          return {
            text: result.text,
            language: result.language,
            audioSeconds: result.audioSeconds,
            model: result.call.model,
            costUsd: result.call.costUsd
          }
        }),
      video: (request) =>
        Effect.gen(function* () {
          if (typeof request.prompt !== "string" || request.prompt.trim() === "")
            return yield* refused("Say what to film: prompt must be a non-empty string.")
          yield* refusedUnlessChecked(() => {
            oneOf(llmVideoSeconds, request.seconds, "seconds")
            oneOf(llmVideoSizes, request.size, "size")
          })
          const options = {
            ...(request.seconds === undefined ? {} : { seconds: request.seconds }),
            ...(request.size === undefined ? {} : { size: request.size })
          }
          const result = yield* refusedWithMessage(models.video({ ...charged, prompt: request.prompt, ...options }))
          return {
            data: result.video,
            mimeType: result.mimeType,
            seconds: result.seconds,
            size: result.size,
            model: result.call.model,
            costUsd: result.call.costUsd
          }
        }),
      ocr: (request) => refusedWithMessage(readPageImage(models, charged, request.png))
    }
  }
})
