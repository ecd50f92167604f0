/**
 * The twin's PluginSyncs over the kernel's contribution registries: each provider a
 * loaded plugin contributes with a `sync` function, as a remote sync the twin runs like mail_a's,
 * and each with `webhook` auth and a `receive` function, for the webhook route. The plugin is
 * handed the connection's id, its non-secret `meta` and the last cursor (or the delivery's body),
 * never the connection's secret. A plugin's items land as `learned` activity (the twin has no
 * activity kind per plugin). An oauth2 provider's `auth.fetch` comes from comms through its contract
 * (PluginAuthFetch), which keeps the tokens; the node lists it below the twin.
 *
 * It reads `LoadedContributions`, not the `ExtensionHost`: the host is built over the twin (its `memory`
 * adapter calls the twin's memories), so reading through it made a cycle, once broken by binding
 * this list at run time after the host was built. The registries stand apart from the host
 * (kernel/extensions/registry.ts) and the host writes into them, so every
 * dependency points one way: registries ← twin ← extension host.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PluginSyncs, type PluginReceiver } from "./plugin-syncs.ts"
import type { RemoteSync } from "./ports.ts"
import { LoadedContributions } from "../../kernel/extensions/registry.ts"
import type { IntegrationFunctionName } from "../../kernel/extensions/integration-functions.ts"
import type { Contribution, Registries } from "../../kernel/extensions/registry.ts"
import type { ProviderDescriptor } from "./contract/connections.ts"
import { callIntegration, integrationsWith } from "./plugin-integrations.ts"
import { fromPlugin } from "./providers.ts"
import { PluginAuthFetch } from "../comms/contract/plugin-auth-fetch.ts"

/**
 * Each plugin integration handing `fn`, with its descriptor (one that does not fit is left out, as in the registry).
 */
const described = <A>(
  registries: Registries,
  fn: IntegrationFunctionName,
  make: (contribution: Contribution<"integration">, descriptor: ProviderDescriptor) => ReadonlyArray<A>
) =>
  Effect.suspend(() =>
    Effect.forEach(integrationsWith(registries, fn), (contribution) =>
      Effect.map(fromPlugin(contribution), (registered) =>
        registered.flatMap(({ descriptor }) => make(contribution, descriptor))
      )
    )
  ).pipe(Effect.map((lists) => lists.flat()))

export const PluginSyncsLive = Layer.effect(
  PluginSyncs,
  Effect.gen(function* () {
    const { registries } = yield* LoadedContributions
    const auth = yield* PluginAuthFetch
    /** An oauth2 provider's authorised fetch for the being (the comms feature keeps its tokens); nothing for any other auth. */
    const authFor = (descriptor: ProviderDescriptor, beingId: string) =>
      descriptor.auth.kind === "oauth2"
        ? Effect.mapError(auth.forBeing(beingId, descriptor.id), (error) => new Error(error.message))
        : Effect.succeed(undefined)
    const syncs = described(
      registries,
      "sync",
      (contribution, descriptor): ReadonlyArray<RemoteSync> => [
        {
          provider: descriptor.id,
          title: descriptor.title,
          icon: descriptor.icon,
          activity: "learned",
          origin: "plugin",
          cadenceMs: descriptor.cadenceMs,
          configured: true,
          unconfigured: "",
          connect: `Connect ${descriptor.title} under Settings → Connections, then sync.`,
          pull: (beingId, cursor, connection) =>
            Effect.flatMap(authFor(descriptor, beingId), (auth) =>
              callIntegration(
                contribution,
                "sync",
                beingId,
                { connectionId: connection.id, cursor, meta: connection.meta },
                auth
              )
            )
        }
      ]
    )
    const receivers = described(
      registries,
      "receive",
      (contribution, descriptor): ReadonlyArray<PluginReceiver> =>
        descriptor.auth.kind === "webhook"
          ? [
              {
                provider: descriptor.id,
                title: descriptor.title,
                verify: descriptor.auth.verify,
                receive: (beingId, delivery) =>
                  Effect.flatMap(authFor(descriptor, beingId), (auth) =>
                    callIntegration(contribution, "receive", beingId, delivery, auth)
                  )
              }
            ]
          : []
    )
    return { list: syncs, receivers }
  })
)
