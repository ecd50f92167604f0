/**
 * The peer actor on test layers: its entity over an in-memory SQLite, a Handshake port that
 * checks nothing, and a transport that records every post and answers as the test says. What
 * reaches the transport is what would have left the node.
 */
import * as Entity from "@effect/cluster/Entity"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PeerLive } from "../../../actors/peer/behaviour.ts"
import { PeerEntity } from "../../../actors/peer/protocol.ts"
import { Handshake, PeerTransport, PeerUnreachable } from "../../../extensions/federation/contract/ports.ts"
import type { PeerHello, SignedChallenge } from "../../../extensions/federation/contract/wire.ts"
import { migrations } from "../../../host/migrations.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"

const posts: Array<string> = []
let awake = true

const transport = Layer.succeed(PeerTransport, {
  post: (endpoint, path) => {
    posts.push(`${endpoint}${path}`)
    return awake ? Effect.succeed({ status: 200, json: {} }) : Effect.fail(new PeerUnreachable({ reason: "asleep" }))
  },
  get: () => Effect.fail(new PeerUnreachable({ reason: "not asked here" }))
})

const handshake = Layer.succeed(Handshake, {
  hello: () => Effect.succeed({ hello: {} as PeerHello, challenge: {} as SignedChallenge }),
  checkGreeting: () =>
    Effect.succeed({
      verified: true,
      accepted: true,
      reason: "ok",
      check: null,
      skewSeconds: 0,
      claims: { label: "B", profile: "personal", software: "x/1", serves: [] }
    })
})

const infrastructure = Layer.mergeAll(transport, handshake, ShardingConfig.layerDefaults).pipe(
  Layer.provideMerge(databaseLayer(migrations, { filename: ":memory:" })),
  Layer.provide(Settings.layerWith({}))
)

describe("the peer actor", () => {
  it.scoped("greets on add, sends nothing while blocked, and lands unverified on unblock", () =>
    Effect.gen(function* () {
      const peer = yield* Effect.flatMap(Entity.makeTestClient(PeerEntity, PeerLive), (client) =>
        client("did:key:z6Mkpeer")
      )
      const added = yield* peer.Add({ endpoint: "http://b.test", name: "B", relay: null })
      expect(added).toMatchObject({ verified: true, peer: { status: "verified", label: "B" } })
      expect(posts).toEqual(["http://b.test/api/federation/peer/hello"])
      expect((yield* Effect.flip(peer.Add({ endpoint: "http://b.test", name: "B", relay: null })))._tag).toBe(
        "PeerExists"
      )

      yield* peer.Update({ blocked: true })
      const greeted = yield* peer.Greet()
      expect(greeted).toMatchObject({ verified: false, peer: { status: "blocked" } })
      yield* peer.Update({ endpoint: "http://moved.test" })
      expect(posts).toHaveLength(1)
      // The courier giving up on a blocked peer leaves the block.
      yield* peer.Unreachable({ reason: "silent for two days" })
      expect((yield* peer.Update({})).status).toBe("blocked")

      expect((yield* peer.Update({ blocked: false })).status).toBe("unverified")
      awake = false
      const asleep = yield* peer.Greet()
      expect(asleep).toMatchObject({
        verified: false,
        reason: "asleep",
        peer: { status: "unreachable", lastError: "asleep", endpoint: "http://moved.test" }
      })
      expect(posts).toEqual(["http://b.test/api/federation/peer/hello", "http://moved.test/api/federation/peer/hello"])

      awake = true
      expect((yield* peer.Greet()).peer.status).toBe("verified")
      yield* peer.Unreachable({ reason: "silent for two days" })
      expect(yield* peer.Update({})).toMatchObject({ status: "unreachable", lastError: "silent for two days" })

      expect(yield* peer.Remove()).toBe(true)
      expect((yield* Effect.flip(peer.Greet()))._tag).toBe("PeerMissing")
    }).pipe(Effect.provide(infrastructure))
  )
})
