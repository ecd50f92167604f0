/**
 * Calling a plugin provider's `sync` or `receive` (kernel/extensions/integration-functions.ts) for
 * one being: with the plugin's granted adapters narrowed to the integration's `uses` and built for
 * that being, under the host's deadline. In-process for a built-in, through its isolate for a
 * third-party plugin (the isolate's host function does the crossing). What it answers is not
 * trusted here: the twin validates it against ProviderSyncResult before anything is remembered.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UnknownException } from "effect/Cause"
import {
  integrationFunction,
  integrationTimeoutMs,
  type AuthAdapter,
  type IntegrationFunctionName,
  type ProviderReceiveRequest,
  type ProviderSyncRequest
} from "../../kernel/extensions/integration-functions.ts"
import type { Contribution, Registries } from "../../kernel/extensions/registry.ts"
import { spanNamed } from "../../kernel/spans.ts"

const messageOf = (cause: unknown) =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "it failed without saying why"

/** The plugin integrations that hand the host this function. */
export const integrationsWith = (registries: Registries, fn: IntegrationFunctionName) =>
  registries.integration.list().filter((contribution) => integrationFunction(contribution.value, fn) !== undefined)

/**
 * One call; fails with an Error whose message says plainly what went wrong (never holding a secret: none is handed
 * over).
 */
export const callIntegration = (
  contribution: Contribution<"integration">,
  fn: IntegrationFunctionName,
  beingId: string,
  request: ProviderSyncRequest | ProviderReceiveRequest,
  auth?: AuthAdapter
): Effect.Effect<unknown, Error> =>
  Option.match(Option.fromNullable(integrationFunction(contribution.value, fn)), {
    onNone: () => Effect.fail(new Error(`${contribution.name} has no ${fn} function`)),
    onSome: (run) =>
      Effect.tryPromise(async () => {
        const granted = contribution.context.adaptersFor({
          beingId,
          projectId: null,
          contribution: contribution.name
        })
        const adapters = auth === undefined ? granted : ({ ...granted, auth } as typeof granted)
        return await run(request, auth === undefined ? { beingId, adapters } : { beingId, adapters, auth })
      }).pipe(
        // A built-in's function may answer an Effect: it runs here, in the caller's fiber.
        Effect.flatMap((answered) =>
          Effect.isEffect(answered) ? (answered as Effect.Effect<unknown, unknown>) : Effect.succeed(answered)
        ),
        Effect.catchAllDefect(Effect.fail),
        Effect.mapError((failure) => {
          const cause = failure instanceof UnknownException ? failure.error : failure
          return new Error(`the ${fn} of ${contribution.name} failed: ${messageOf(cause)}`.slice(0, 400))
        }),
        Effect.timeoutFail({
          duration: Duration.millis(integrationTimeoutMs),
          onTimeout: () =>
            new Error(`the ${fn} of ${contribution.name} did not finish within ${integrationTimeoutMs / 1000} seconds`)
        }),
        spanNamed(`plugins.${fn}`, { attributes: { provider: contribution.name } })
      )
  })
