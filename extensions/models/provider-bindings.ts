/**
 * The owner's providers and tier bindings as this process holds them: read from the database at
 * start with every key opened, read again after each change made here, and when another process
 * of the cluster says it changed them (a `models.bindings-changed` broadcast). So a binding made
 * in Settings → Models serves the next call on every runner, with no restart, and resolving a tier
 * (bindings.ts) stays a read of memory on the call's path.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Redacted from "effect/Redacted"
import { Broadcast } from "../../kernel/broadcast.ts"
import { SecretSealer } from "../twin/contract/secret-sealer.ts"
import type { ModelTier } from "./contract/records.ts"
import "./contract/broadcasts.ts"
import { ProvidersRepository, type StoredProvider, type StoredTier } from "./providers-repository.ts"

export interface OwnedProvider extends Omit<StoredProvider, "sealedKey"> {
  /** The opened key; None when it has none, or it no longer opens (said in the log). */
  readonly apiKey: Option.Option<Redacted.Redacted>
  readonly hasKey: boolean
}

export interface OwnerBindings {
  readonly providers: ReadonlyMap<string, OwnedProvider>
  readonly tiers: ReadonlyMap<ModelTier, StoredTier>
}

export const noOwnerBindings: OwnerBindings = { providers: new Map(), tiers: new Map() }

export interface ProviderBindingsShape {
  /** The bindings as they are now in this process. */
  readonly current: () => OwnerBindings
  /** Read them again after a change made here, and tell the other processes. */
  readonly changed: Effect.Effect<void>
}

export class ProviderBindings extends Effect.Tag("models/ProviderBindings")<ProviderBindings, ProviderBindingsShape>() {
  /** None bound: for a Models built without a database (unit tests of calls). */
  static readonly none = Layer.succeed(ProviderBindings, { current: () => noOwnerBindings, changed: Effect.void })

  static readonly live = Layer.scoped(
    ProviderBindings,
    Effect.gen(function* () {
      const repository = yield* ProvidersRepository
      const sealer = yield* SecretSealer
      const broadcast = yield* Broadcast

      const opened = (stored: StoredProvider) =>
        Effect.map(
          stored.sealedKey === null ? Effect.succeedNone : sealer.open(stored.sealedKey),
          (apiKey): OwnedProvider => ({
            id: stored.id,
            name: stored.name,
            baseUrl: stored.baseUrl,
            apiKey,
            hasKey: stored.sealedKey !== null
          })
        )

      const read = Effect.gen(function* () {
        const providers = yield* Effect.forEach(yield* repository.providers, opened)
        const tiers = yield* repository.tiers
        return {
          providers: new Map(providers.map((provider) => [provider.id, provider])),
          tiers: new Map(tiers.map((tier) => [tier.tier, tier]))
        } satisfies OwnerBindings
      })

      let bindings = yield* read
      // One read at a time, so a slower read begun earlier never lands over a later one.
      const lock = yield* Effect.makeSemaphore(1)
      const reload = lock.withPermits(1)(
        Effect.map(read, (fresh) => {
          bindings = fresh
        })
      )

      const fromOthers = yield* broadcast.subscribe
      yield* Effect.forkScoped(
        Effect.forever(
          Effect.flatMap(Queue.take(fromOthers), (body) =>
            // Deaf for a while (listen.resumed): a change elsewhere may have been missed.
            body.kind === "models.bindings-changed" || body.kind === "listen.resumed" ? reload : Effect.void
          )
        )
      )

      return {
        current: () => bindings,
        changed: Effect.zipRight(reload, broadcast.send({ kind: "models.bindings-changed" }))
      }
    })
  ).pipe(Layer.provide(ProvidersRepository.Default))
}
