/**
 * Every model call of the node goes through here. A call (1) resolves its tier to a binding, and
 * fails at once with `ModelsUnavailable` when there is no key and no local server; (2) checks the
 * three spend ceilings against its estimated cost; (3) calls the provider through the `openai`
 * SDK; (4) records an LlmCall with its tokens and cost. A failed local call is retried once on
 * the remote default binding only when `LOCAL_LLM_FALLBACK` is set (the ceilings are checked
 * again, since that call costs money); a stream falls back only if it fails before its first byte.
 * Those steps are made in call-steps.ts; this file holds the tiers answered through the chat,
 * embeddings and images APIs, and assembles the tiers with their own endpoint beside them.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { ChatCompletionCreateParamsBase } from "openai/resources/chat/completions"
import { tracedAs, spanNamed } from "../../kernel/spans.ts"
import type { Binding } from "./bindings.ts"
import { makeCallTools } from "./call-steps.ts"
import type { Usage } from "./call-tools.ts"
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
  ResponseFormat
} from "./contract/chat.ts"
import { ModelCallFailed, ModelReplyNotJson } from "./contract/errors.ts"
import { LlmLedger } from "./ledger.ts"
import { costOf, tokensIn } from "./prices.ts"
import type { ChatTier, LlmCall } from "./contract/records.ts"
import { Models, type ModelsShape } from "./contract/models.ts"
import { answerOf, promptText, streamAssembler, toWireRequest, wireJson, type Answer } from "./wire.ts"
import { makeSpeech } from "./speech.ts"
import { makeTranscription } from "./transcription.ts"
import { makeVideo } from "./video.ts"

/**
 * The SDK's options for a chat body: the request's JSON made here (wire.ts `wireJson`), so the SDK sends it as it is
 * rather than serialising the body again; the typed body still tells the SDK whether the answer streams.
 */
const sentAs = (body: ChatCompletionCreateParamsBase, signal: AbortSignal) => ({
  signal,
  body: wireJson(body),
  headers: { "content-type": "application/json" }
})

/** What a stream's watchdog throws when the model went silent; told apart from the SDK's own failures. */
const silence = Symbol("silence")

/**
 * A streamed answer's chunks, failing with `silence` once none came for `ms` while one was awaited, the request then
 * aborted. One timer for the whole answer, re-armed as each wait begins: `Stream.timeoutFail` raced a fiber and a timer
 * of its own against every chunk, on the path from the model's first chunk to the socket.
 */
const untilSilent = <A>(chunks: AsyncIterable<A> & { readonly controller: AbortController }, ms: number) => ({
  [Symbol.asyncIterator]: (): AsyncIterator<A> => {
    const iterator = chunks[Symbol.asyncIterator]()
    let waiting: ((reason: unknown) => void) | null = null
    const timer = setTimeout(() => {
      if (waiting === null) return
      waiting(silence)
      chunks.controller.abort()
    }, ms)
    return {
      next: () => {
        timer.refresh()
        return new Promise<IteratorResult<A>>((resolve, reject) => {
          waiting = reject
          iterator.next().then(
            (result) => {
              waiting = null
              if (result.done === true) clearTimeout(timer)
              resolve(result)
            },
            (error: unknown) => {
              waiting = null
              clearTimeout(timer)
              reject(error)
            }
          )
        })
      },
      return: async () => {
        clearTimeout(timer)
        return (await iterator.return?.()) ?? { done: true, value: undefined }
      }
    }
  }
})

/** The implementation of the contract's `Models`. */
const makeModels = Effect.gen(function* () {
  const tools = yield* makeCallTools
  const { settings, usableBinding, withFallback, beginPriced, record, clientFor, failureOf } = tools

  /** A call priced by its prompt: the prompt's estimated tokens, the answer's unknown yet. */
  const begin = (binding: Binding, fallback: boolean, prompt: string, context: CallContext) =>
    beginPriced(binding, fallback, (price) => costOf(price, tokensIn(prompt), 0), context)

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
            try: async (signal) => {
              const sent = { ...body, stream: false as const }
              return (await clientFor(binding)).chat.completions.create(sent, sentAs(sent, signal))
            },
            catch: failureOf(binding)
          })
          const answer = answerOf(completion)
          const call = yield* record(attempt, request, answer.usage, countedUsage(prompt, answer))
          return resultOf(answer, call)
        })
      )
    }).pipe((self) => tracedAs(self, "models.chat", { attributes: { tier, purpose: request.purpose } }))

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
              try: async (signal) => {
                const sent = { ...body, stream: true as const, stream_options: { include_usage: true } }
                return (await clientFor(binding)).chat.completions.create(sent, sentAs(sent, signal))
              },
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
        const failed = failureOf(attempt.binding)
        return Stream.fromAsyncIterable(untilSilent(opened.chunks, settings.llmTimeoutMs), (error) =>
          error === silence ? silent : failed(error)
        ).pipe(
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
    }).pipe(spanNamed("models.embed", { attributes: { purpose: request.purpose } }))

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
    }).pipe(spanNamed("models.image", { attributes: { purpose: request.purpose } }))

  const transcribe = makeTranscription(tools)
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
