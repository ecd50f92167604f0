/**
 * The peer actor: one entity per peer node, serialising its handshake and its state changes
 * (protocol.ts). The handshake is this node's side of docs/federation.md "The handshake": the
 * hello and the check of the answer come from the `Handshake` port (the node's key lives with
 * the federation), the post from `PeerTransport` (the node's outbound HTTP).
 */
import * as Entity from "@effect/cluster/Entity"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Handshake, PeerTransport } from "../../extensions/federation/contract/ports.ts"
import type { Peer, PeerSession } from "../../extensions/federation/contract/records.ts"
import { entityLayer } from "../../kernel/actors/index.ts"
import { PeersRepository } from "./peers-repository.ts"
import { PeerExists, PeerMissing } from "./contract/errors.ts"
import { PeerEntity } from "./protocol.ts"
import { afterGreeting, afterSilence, afterUpdate } from "./states.ts"
import { fnNamed } from "../../kernel/spans.ts"

const HELLO_PATH = "/api/federation/peer/hello"

const build = Effect.gen(function* () {
  const nodeDid = (yield* Entity.CurrentAddress).entityId
  const peers = yield* PeersRepository
  const handshake = yield* Handshake
  const transport = yield* PeerTransport
  const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

  const existing = Effect.flatMap(
    peers.find(nodeDid),
    Option.match({
      onNone: () => Effect.fail(new PeerMissing({ nodeDid })),
      onSome: (peer) => Effect.succeed(peer)
    })
  )

  const session = (
    peer: Peer,
    verified: boolean,
    reason: string,
    at: string,
    extra: Pick<PeerSession, "check" | "skewSeconds"> = { check: null, skewSeconds: null }
  ): PeerSession => ({ peer, verified, reason, at, ...extra })

  const greet = fnNamed("peer.greet")(function* (peer: Peer) {
    const at = yield* isoNow
    if (peer.status === "blocked") return session(peer, false, "The peer is blocked: nothing is sent to it.", at)
    const { hello, challenge } = yield* handshake.hello(nodeDid)
    const answer = yield* Effect.either(transport.post(peer.endpoint, HELLO_PATH, hello))
    if (answer._tag === "Left" || answer.right.status !== 200) {
      const reason =
        answer._tag === "Left" ? answer.left.reason : `It answered HTTP ${answer.right.status}, not a greeting.`
      const next = afterSilence(peer, reason)
      yield* peers.save(next)
      return session(next, false, reason, at)
    }
    const outcome = yield* handshake.checkGreeting({
      greeting: answer.right.json,
      peerDid: nodeDid,
      challenge,
      at: Date.parse(at)
    })
    const next = afterGreeting(peer, outcome, at)
    yield* peers.save(next)
    return session(next, outcome.verified, outcome.reason, at, {
      check: outcome.check,
      skewSeconds: outcome.skewSeconds
    })
  })

  return PeerEntity.of({
    Add: ({ payload }) =>
      Effect.gen(function* () {
        const peer: Peer = {
          nodeDid,
          endpoint: payload.endpoint,
          name: payload.name,
          status: "unverified",
          label: null,
          profile: null,
          software: null,
          serves: [],
          addedAt: yield* isoNow,
          verifiedAt: null,
          lastSeenAt: null,
          collectedAt: null,
          relay: payload.relay,
          lastError: null,
          publish: false
        }
        if (!(yield* peers.insert(peer))) return yield* Effect.fail(new PeerExists({ nodeDid }))
        return yield* greet(peer)
      }),
    Greet: () => Effect.flatMap(existing, greet),
    Update: ({ payload }) =>
      Effect.gen(function* () {
        const next = afterUpdate(yield* existing, payload)
        yield* peers.save(next)
        return next
      }),
    Unreachable: ({ payload }) =>
      Effect.flatMap(
        peers.find(nodeDid),
        Option.match({
          onNone: () => Effect.void,
          onSome: (peer) => (peer.status === "blocked" ? Effect.void : peers.save(afterSilence(peer, payload.reason)))
        })
      ),
    Remove: () => peers.remove(nodeDid)
  })
})

export const PeerLive = entityLayer(PeerEntity, build).pipe(Layer.provideMerge(PeersRepository.Default))
