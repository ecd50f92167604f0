/**
 * Every model call of the node goes through here. A call (1) resolves its tier to a binding, and
 * fails at once with `ModelsUnavailable` when there is no key and no local server; (2) checks the
 * three spend ceilings against its estimated cost; (3) calls the provider through the `openai`
 * SDK; (4) records an LlmCall with its tokens and cost. A failed local call is retried once on
 * the remote default binding only when `LOCAL_LLM_FALLBACK` is set (the ceilings are checked
 * again, since that call costs money); a stream falls back only if it fails before its first byte.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { randomUUID } from "node:crypto"
import { ModelSettings } from "./settings.ts"
import { bindingOf, fallbackOf, isChatTier, isUsable, type Binding } from "./bindings.ts"
import { SpendCeilings } from "./ceilings.ts"
import type {
  CallContext,
  ChatRequest,
  ChatResult,
  ChatStreamEvent,
  EmbedRequest,
  EmbedResult,
  ImageRequest,
  ImageResult,
  JsonResult,
  ResponseFormat,
  TranscriptionRequest,
  TranscriptionResult
} from "./contract/chat.ts"
import { loadSdk, loadedSdk, makeClients } from "./clients.ts"
import { ModelCallFailed, ModelReplyNotJson, ModelsUnavailable, type SpendCeilingReached } from "./contract/errors.ts"
import { LlmLedger } from "./ledger.ts"
import { audioSecondsIn, costOf, costOfAudio, priceOf, tokensIn } from "./prices.ts"
import type { ChatTier, LlmCall, ModelPrice, ModelTier } from "./contract/records.ts"
import { Models, type ModelsShape } from "./contract/models.ts"
import { answerOf, promptText, streamAssembler, toWireRequest, type Answer } from "./wire.ts"
import type { Attempt, Billed, CallTools, Usage } from "./call-tools.ts"
import { makeSpeech } from "./speech.ts"
import { makeVideo } from "./video.ts"

/** The innermost reason a connection failed ("connect ECONNREFUSED 127.0.0.1:11434"), not fetch's "fetch failed". */
const rootCause = (error: Error): string => {
  let current: unknown = error
  while (current instanceof Error && current.cause instanceof Error) current = current.cause
  return current instanceof Error ? current.message : String(current)
}

/**
 * The audio's length a transcription answer reports: `usage.seconds` (OpenAI's json), or `duration` (verbose_json,
 * local servers).
 */
const durationOf = (answer: {
  readonly usage?: { readonly type: string; readonly seconds?: number }
}): number | null => {
  if (answer.usage?.type === "duration" && typeof answer.usage.seconds === "number") return answer.usage.seconds
  const duration = (answer as { readonly duration?: unknown }).duration
  return typeof duration === "number" && duration >= 0 ? duration : null
}

/** The language a transcription answer names (`language` of verbose_json and many local servers), if any. */
const languageOf = (answer: object): string | null => {
  const language = (answer as { readonly language?: unknown }).language
  return typeof language === "string" && language !== "" ? language.slice(0, 40) : null
}

/** The implementation of the contract's `Models`. */
const makeModels = Effect.gen(function* () {
  const settings = yield* ModelSettings
  const ledger = yield* LlmLedger
  const ceilings = yield* SpendCeilings
  const clientFor = makeClients(settings.llmTimeoutMs)

  const usableBinding = (tier: ModelTier): Effect.Effect<Binding, ModelsUnavailable> => {
    const binding = bindingOf(settings, tier)
    if (isUsable(binding)) return Effect.succeed(binding)
    return Effect.fail(
      new ModelsUnavailable({
        tier,
        message:
          `No model can be called for the '${tier}' tier: ${binding.baseUrl} needs a key. ` +
          `Set ${binding.apiKeySetting}, or set ${binding.baseUrlSetting} to a local model server ` +
          `(llama.cpp, Ollama, vLLM), which needs none.` +
          // A tier with its own endpoint is often served elsewhere than chat: say how to bind it alone.
          (isChatTier(tier) || binding.baseUrlSetting !== "LLM_BASE_URL"
            ? ""
            : ` To bind this tier alone, set LLM_${tier.toUpperCase()}_BASE_URL and LLM_${tier.toUpperCase()}_API_KEY.`)
      })
    )
  }

  const failureOf =
    (binding: Binding) =>
    (error: unknown): ModelCallFailed => {
      const { APIConnectionError, APIConnectionTimeoutError, APIError } = loadedSdk() ?? {}
      const isA =
        <C extends abstract new (...args: never) => unknown>(
          Class: C | undefined
        ): ((e: unknown) => e is InstanceType<C>) =>
        (e): e is InstanceType<C> =>
          Class !== undefined && e instanceof Class
      const apiStatus = isA(APIError)(error) && error.status !== undefined ? error.status : null
      const what = isA(APIConnectionTimeoutError)(error)
        ? `did not answer within ${settings.llmTimeoutMs} ms (LLM_TIMEOUT_MS)`
        : isA(APIConnectionError)(error)
          ? `could not be reached (${rootCause(error)})`
          : apiStatus !== null && error instanceof Error
            ? // The SDK's message starts with the status: "429 Rate limit reached".
              `answered ${error.message}`
            : `failed: ${error instanceof Error ? error.message : String(error)}`
      return new ModelCallFailed({
        tier: binding.tier,
        model: binding.model,
        baseUrl: binding.baseUrl,
        status: apiStatus,
        message: `The ${binding.local ? "local" : "remote"} model ${binding.model} of the '${binding.tier}' tier at ${binding.baseUrl} ${what}.`
      })
    }

  /** Prices the attempt, then checks the ceilings against its estimated cost. */
  const beginPriced = (
    binding: Binding,
    fallback: boolean,
    estimate: (price: ModelPrice) => number,
    context: CallContext
  ) =>
    Effect.gen(function* () {
      const priced = priceOf(settings.llmPrices, binding)
      yield* ceilings.check({
        tier: binding.tier,
        model: binding.model,
        purpose: context.purpose,
        projectId: context.projectId ?? null,
        estimateUsd: estimate(priced.price),
        pricing: priced.pricing
      })
      return { binding, fallback, priced, startedAt: yield* Clock.currentTimeMillis } satisfies Attempt
    })

  /** A call priced by its prompt: the prompt's estimated tokens, the answer's unknown yet. */
  const begin = (binding: Binding, fallback: boolean, prompt: string, context: CallContext) =>
    beginPriced(binding, fallback, (price) => costOf(price, tokensIn(prompt), 0), context)

  /** The primary attempt; on a failed local call, once more on the remote default if allowed. */
  const withFallback = <A>(
    primary: Binding,
    attempt: (binding: Binding, fallback: boolean) => Effect.Effect<A, ModelCallFailed | SpendCeilingReached>
  ): Effect.Effect<A, ModelCallFailed | SpendCeilingReached> =>
    Effect.catchTag(attempt(primary, false), "ModelCallFailed", (failure) => {
      const remote = fallbackOf(settings, primary)
      if (remote === null) {
        return Effect.fail(
          primary.local
            ? new ModelCallFailed({
                ...failure,
                message: `${failure.message} A local tier does not fall back to a remote provider unless LOCAL_LLM_FALLBACK is set.`
              })
            : failure
        )
      }
      return Effect.zipRight(
        Effect.logWarning(`${failure.message} Retrying once on ${remote.baseUrl} (LOCAL_LLM_FALLBACK is set).`),
        attempt(remote, true)
      )
    })

  /**
   * Records the call; tokens the provider did not report are counted from the text. A tier that
   * bills in its own unit (audio heard, characters spoken, video made) adds its price in it.
   */
  const record = (
    attempt: Attempt,
    context: CallContext,
    usage: Usage | null,
    counted: Usage,
    billedIn?: (price: ModelPrice) => Billed
  ) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const reported = usage ?? counted
      // The ledger counts whole tokens: a provider reporting a fraction is rounded, not refused after it was paid.
      const tokens = {
        promptTokens: Math.round(reported.promptTokens),
        completionTokens: Math.round(reported.completionTokens)
      }
      const tokenCost = costOf(attempt.priced.price, tokens.promptTokens, tokens.completionTokens)
      const billed = billedIn?.(attempt.priced.price) ?? {
        unit: "tokens",
        quantity: tokens.promptTokens + tokens.completionTokens,
        costUsd: 0
      }
      const call: LlmCall = {
        id: randomUUID(),
        beingId: context.beingId ?? null,
        projectId: context.projectId ?? null,
        model: attempt.binding.model,
        tier: attempt.binding.tier,
        provider: attempt.binding.local ? "local" : "remote",
        baseUrl: attempt.binding.baseUrl,
        fallback: attempt.fallback,
        promptTokens: tokens.promptTokens,
        completionTokens: tokens.completionTokens,
        usageReported: usage !== null,
        costUsd: tokenCost + billed.costUsd,
        unit: billed.unit,
        quantity: billed.quantity,
        pricing: attempt.priced.pricing,
        purpose: context.purpose,
        durationMs: now - attempt.startedAt,
        createdAt: new Date(attempt.startedAt).toISOString()
      }
      yield* ledger.record(call)
      return call
    })

  const countedUsage = (prompt: string, answer: Answer): Usage => ({
    promptTokens: tokensIn(prompt),
    completionTokens: tokensIn(answer.text + answer.toolCalls.map((call) => call.name + call.arguments).join(""))
  })

  const resultOf = (answer: Answer, call: LlmCall): ChatResult => ({
    text: answer.text,
    toolCalls: answer.toolCalls,
    finishReason: answer.finishReason,
    call
  })

  const chat = (tier: ChatTier, request: ChatRequest) =>
    Effect.gen(function* () {
      const primary = yield* usableBinding(tier)
      return yield* withFallback(primary, (binding, fallback) =>
        Effect.gen(function* () {
          const body = toWireRequest(binding.model, request, binding.local)
          const prompt = promptText(body)
          const attempt = yield* begin(binding, fallback, prompt, request)
          const completion = yield* Effect.tryPromise({
            try: async (signal) =>
              (await clientFor(binding)).chat.completions.create({ ...body, stream: false }, { signal }),
            catch: failureOf(binding)
          })
          const answer = answerOf(completion)
          const call = yield* record(attempt, request, answer.usage, countedUsage(prompt, answer))
          return resultOf(answer, call)
        })
      )
    }).pipe(Effect.withSpan("models.chat", { attributes: { tier, purpose: request.purpose } }))

  const chatJson = (tier: ChatTier, request: ChatRequest & { readonly responseFormat: ResponseFormat }) =>
    Effect.flatMap(chat(tier, request), (result) =>
      Effect.try({
        try: (): JsonResult => ({ value: JSON.parse(result.text), text: result.text, call: result.call }),
        catch: () =>
          new ModelReplyNotJson({
            text: result.text,
            call: result.call,
            message: `The ${result.call.model} model was asked for JSON and answered something else.`
          })
      })
    )

  const chatStream = (tier: ChatTier, request: ChatRequest) =>
    Stream.unwrap(
      Effect.gen(function* () {
        const primary = yield* usableBinding(tier)
        const opened = yield* withFallback(primary, (binding, fallback) =>
          Effect.gen(function* () {
            const body = toWireRequest(binding.model, request, binding.local)
            const prompt = promptText(body)
            const attempt = yield* begin(binding, fallback, prompt, request)
            const chunks = yield* Effect.tryPromise({
              try: async (signal) =>
                (await clientFor(binding)).chat.completions.create(
                  { ...body, stream: true, stream_options: { include_usage: true } },
                  { signal }
                ),
              catch: failureOf(binding)
            })
            return { attempt, prompt, chunks }
          })
        )
        const assembler = streamAssembler()
        const { attempt, prompt } = opened
        let recorded = false
        const finish = Effect.gen(function* () {
          const answer = assembler.answer()
          const call = yield* record(attempt, request, answer.usage, countedUsage(prompt, answer))
          recorded = true
          return { type: "done", result: resultOf(answer, call) } satisfies ChatStreamEvent
        })
        // A stream cut short (a failure, or the reader stopped) was still paid for as far as it went.
        const recordCutShort = Effect.suspend(() => {
          if (recorded) return Effect.void
          const answer = assembler.answer()
          return Effect.asVoid(record(attempt, request, answer.usage, countedUsage(prompt, answer)))
        })
        const silent = new ModelCallFailed({
          tier: attempt.binding.tier,
          model: attempt.binding.model,
          baseUrl: attempt.binding.baseUrl,
          status: null,
          message: `The model ${attempt.binding.model} of the '${tier}' tier went silent for ${settings.llmTimeoutMs} ms mid-answer (LLM_TIMEOUT_MS).`
        })
        return Stream.fromAsyncIterable(opened.chunks, failureOf(attempt.binding)).pipe(
          Stream.timeoutFail(() => silent, settings.llmTimeoutMs),
          Stream.map(assembler.add),
          Stream.filter((text) => text !== ""),
          Stream.map((text): ChatStreamEvent => ({ type: "delta", text })),
          Stream.concat(Stream.fromEffect(finish)),
          Stream.ensuring(recordCutShort)
        )
      })
    ).pipe(Stream.withSpan("models.chatStream", { attributes: { tier, purpose: request.purpose } }))

  const embed = (request: EmbedRequest) =>
    Effect.gen(function* () {
      const primary = yield* usableBinding("embed")
      const input = typeof request.input === "string" ? [request.input] : [...request.input]
      const prompt = input.join("\n")
      return yield* withFallback(primary, (binding, fallback) =>
        Effect.gen(function* () {
          const attempt = yield* begin(binding, fallback, prompt, request)
          const response = yield* Effect.tryPromise({
            try: async (signal) =>
              (await clientFor(binding)).embeddings.create({ model: binding.model, input }, { signal }),
            catch: failureOf(binding)
          })
          const usage = Option.fromNullable(response.usage).pipe(
            Option.map((reported): Usage => ({ promptTokens: reported.prompt_tokens, completionTokens: 0 })),
            Option.getOrNull
          )
          const call = yield* record(attempt, request, usage, { promptTokens: tokensIn(prompt), completionTokens: 0 })
          const vectors = [...response.data].sort((a, b) => a.index - b.index).map((item) => item.embedding)
          return { vectors, call } satisfies EmbedResult
        })
      )
    }).pipe(Effect.withSpan("models.embed", { attributes: { purpose: request.purpose } }))

  const image = (request: ImageRequest) =>
    Effect.gen(function* () {
      const primary = yield* usableBinding("image")
      return yield* withFallback(primary, (binding, fallback) =>
        Effect.gen(function* () {
          const attempt = yield* begin(binding, fallback, request.prompt, request)
          const size = request.size === undefined ? {} : { size: request.size }
          // gpt-image models always answer base64 and refuse the parameter; DALL·E answers a URL unless asked.
          const format = binding.model.startsWith("gpt-image") ? {} : { response_format: "b64_json" as const }
          const response = yield* Effect.tryPromise({
            // As base64: the picture comes back in the answer, so nothing is fetched from a URL that expires.
            try: async (signal) =>
              (await clientFor(binding)).images.generate(
                { model: binding.model, prompt: request.prompt, n: 1, ...size, ...format },
                { signal }
              ),
            catch: failureOf(binding)
          })
          const picture = response.data?.[0]
          const usage = Option.fromNullable(response.usage).pipe(
            Option.map(
              (reported): Usage => ({ promptTokens: reported.input_tokens, completionTokens: reported.output_tokens })
            ),
            Option.getOrNull
          )
          // Recorded before the answer is judged: a call that answered was paid for, picture or not.
          const call = yield* record(attempt, request, usage, {
            promptTokens: tokensIn(request.prompt),
            completionTokens: 0
          })
          if (picture?.b64_json === undefined) {
            return yield* Effect.fail(
              new ModelCallFailed({
                tier: binding.tier,
                model: binding.model,
                baseUrl: binding.baseUrl,
                status: null,
                message: `The model ${binding.model} of the 'image' tier at ${binding.baseUrl} answered no picture as base64.`
              })
            )
          }
          return { b64: picture.b64_json, revisedPrompt: picture.revised_prompt ?? null, call } satisfies ImageResult
        })
      )
    }).pipe(Effect.withSpan("models.image", { attributes: { purpose: request.purpose } }))

  const transcribe = (request: TranscriptionRequest) =>
    Effect.gen(function* () {
      const primary = yield* usableBinding("transcribe")
      // Before the call only the size is known: the ceilings are checked against the longest it can plausibly last.
      const estimatedSeconds = audioSecondsIn(request.audio.byteLength)
      return yield* withFallback(primary, (binding, fallback) =>
        Effect.gen(function* () {
          const attempt = yield* beginPriced(
            binding,
            fallback,
            (price) => costOfAudio(price, estimatedSeconds),
            request
          )
          const response = yield* Effect.tryPromise({
            try: async (signal) => {
              const { toFile } = await loadSdk()
              // The file is made from the bytes in memory: the recording never touches the disk.
              const file = await toFile(request.audio, request.filename, { type: request.mimeType })
              const language = request.language === null ? {} : { language: request.language }
              return (await clientFor(binding)).audio.transcriptions.create(
                { model: binding.model, file, response_format: "json", ...language },
                { signal }
              )
            },
            catch: failureOf(binding)
          })
          const reported = durationOf(response)
          const counted: Usage = { promptTokens: 0, completionTokens: tokensIn(response.text) }
          // Reported usage is the audio's length or its tokens, whichever unit the provider bills in.
          const usage =
            response.usage?.type === "tokens"
              ? { promptTokens: response.usage.input_tokens, completionTokens: response.usage.output_tokens }
              : reported === null
                ? null
                : counted
          const seconds = reported ?? estimatedSeconds
          const call = yield* record(attempt, request, usage, counted, (price) => ({
            unit: "audio_minutes",
            quantity: seconds / 60,
            costUsd: costOfAudio(price, seconds)
          }))
          return {
            text: response.text,
            language: languageOf(response) ?? request.language,
            audioSeconds: reported,
            call
          } satisfies TranscriptionResult
        })
      )
    }).pipe(Effect.withSpan("models.transcribe", { attributes: { purpose: request.purpose } }))

  const tools: CallTools = { settings, usableBinding, withFallback, beginPriced, record, clientFor, failureOf }
  const speech = makeSpeech(tools)
  const video = makeVideo(tools)

  return { chat, chatJson, chatStream, embed, image, transcribe, speech, video } satisfies ModelsShape
})

/**
 * Models with its ledger (which the usage route and health read too) and ceilings; needs the SQL
 * client, ModelSettings and SpendAlerts, which the host binds to the owner's desktop.
 */
export const modelsLayer = Layer.effect(Models, makeModels).pipe(
  Layer.provide(SpendCeilings.Default),
  Layer.provideMerge(LlmLedger.Default)
)
