/**
 * The steps every model call takes, made once for the node's Models (models.ts): the tier resolved
 * to a usable binding, the attempt priced and checked against the ceilings, a failed local call
 * retried on the remote default when allowed, a provider's failure said in words a person can act
 * on, and the call recorded in the ledger. Apart from models.ts because every tier shares them:
 * chat and the others in models.ts, speech.ts, video.ts and transcription.ts (call-tools.ts says
 * their shape).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import { bindingOf, defaultBaseUrl, fallbackOf, isUsable, type Binding } from "./bindings.ts"
import type { Attempt, Billed, CallTools, Usage } from "./call-tools.ts"
import { SpendCeilings } from "./ceilings.ts"
import { loadedSdk, makeClients } from "./clients.ts"
import type { CallContext } from "./contract/chat.ts"
import { ModelCallFailed, ModelsUnavailable, type SpendCeilingReached } from "./contract/errors.ts"
import type { LlmCall, ModelPrice, ModelTier } from "./contract/records.ts"
import { LlmLedger } from "./ledger.ts"
import { costOf, priceOf } from "./prices.ts"
import { ModelSettings } from "./settings.ts"
import { ProviderBindings } from "./provider-bindings.ts"

/** The innermost reason a connection failed ("connect ECONNREFUSED 127.0.0.1:11434"), not fetch's "fetch failed". */
const rootCause = (error: Error): string => {
  let current: unknown = error
  while (current instanceof Error && current.cause instanceof Error) current = current.cause
  return current instanceof Error ? current.message : String(current)
}

export const makeCallTools = Effect.gen(function* () {
  const settings = yield* ModelSettings
  const ledger = yield* LlmLedger
  const ceilings = yield* SpendCeilings
  const clientFor = makeClients(settings.llmTimeoutMs)

  const owned = yield* ProviderBindings

  const usableBinding = (tier: ModelTier): Effect.Effect<Binding, ModelsUnavailable> => {
    const binding = bindingOf(settings, owned.current(), tier)
    if (isUsable(binding)) return Effect.succeed(binding)
    // Nothing chosen anywhere: the default provider's address is no one's choice, so it is not named.
    const nothingChosen = binding.source === "environment" && binding.baseUrl === defaultBaseUrl
    return Effect.fail(
      new ModelsUnavailable({
        tier,
        message: nothingChosen
          ? `No model is bound to the '${tier}' tier yet: ${binding.remedy}.`
          : `No model can be called for the '${tier}' tier: ${binding.baseUrl} needs a key. To call one, ${binding.remedy}.`
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

  return { settings, usableBinding, withFallback, beginPriced, record, clientFor, failureOf } satisfies CallTools
})
