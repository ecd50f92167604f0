/**
 * What the federation loops' tests on the TestClock share (test/unit/federation/*-loop.test.ts):
 * a signed capability profile as the relay or directory double answers it, the ports those loops
 * never use, and the in-memory node the client under test runs on.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import {
  ConversationThreads,
  NodeAddress,
  PeerDirectory,
  SquareArrivals
} from "../../extensions/federation/contract/ports.ts"
import type { KeyPair } from "../../extensions/federation/wire/did-key.ts"
import { signPayload } from "../../extensions/federation/wire/signed.ts"
import { EventBusLive } from "../../host/events.ts"
import { migrations } from "../../host/migrations.ts"
import { databaseLayer } from "../../kernel/database.ts"
import { Settings } from "../../kernel/settings.ts"

export const iso = (ms: number) => new Date(ms).toISOString()

/** A capability profile signed by `key`, issued at `now`, for an hour. */
export const signedProfileOf = (
  key: KeyPair,
  now: number,
  runs: ReadonlyArray<{ name: string; path: string; protocol: number }> = []
) =>
  signPayload(
    {
      v: 1,
      type: "svc.node.capabilities",
      did: key.did,
      profile: "personal",
      runs,
      delegatesTo: null,
      fronts: [],
      seedProtocol: 1,
      limits: { maxDocumentBytes: 65536, maxQueued: 256 },
      issuedAt: iso(now),
      expiresAt: iso(now + 3600_000)
    },
    key.secretKey
  )

/**
 * The ports the relay and directory loops never reach (no peers, no threads, no square), and where the node says it is.
 */
export const unusedPorts = Layer.mergeAll(
  Layer.succeed(PeerDirectory, {
    list: Effect.succeed([]),
    page: () => Effect.succeed([]),
    find: () => Effect.succeed(Option.none()),
    findMany: () => Effect.succeed([]),
    seen: () => Effect.void,
    collected: () => Effect.void,
    unreachable: () => Effect.void
  }),
  Layer.succeed(ConversationThreads, { open: () => Effect.die("unused"), insert: () => Effect.die("unused") }),
  Layer.succeed(SquareArrivals, { arrive: () => Effect.die("unused"), retract: () => Effect.die("unused") }),
  Layer.succeed(NodeAddress, { endpoint: "http://me.test", label: "me", software: "test/1" }),
  EventBusLive
)

/** A client's layer on an in-memory database with every migration, its ports given. */
export const inMemoryNode = <A, E, R, P, PE>(client: Layer.Layer<A, E, R>, ports: Layer.Layer<P, PE>) =>
  client.pipe(
    Layer.provideMerge(ports),
    Layer.provideMerge(databaseLayer(migrations, { filename: ":memory:" })),
    Layer.provide(Settings.layerWith({}))
  )
