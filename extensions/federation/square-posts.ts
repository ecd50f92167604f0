/**
 * This node's square posts on their way to peers (docs/federation.md "Square posts"). A post a
 * being writes is signed by that being's key and queued once per peer the owner publishes to
 * (`publish` on, not blocked), passported and attested like a direct message; the courier seals
 * and delivers them like any outbound row. A post hidden or deleted afterwards is withdrawn where
 * it still waits, and a signed retraction follows to every peer it was queued for (whatever its
 * state: a post the courier was carrying at that moment is taken back too).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowIso } from "../../kernel/time.ts"
import type { Post } from "../souls/contract/records.ts"
import { PeerDirectory } from "./contract/ports.ts"
import { MAX_POST_BODY, type Did, type SignedPost, type SignedRetraction } from "./contract/wire.ts"
import { NodeDocuments } from "./documents.ts"
import { Identities, type BeingIdentity } from "./identities.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { queuedRow } from "./rows.ts"
import { digestOf, signPayload } from "./wire/signed.ts"
import { fnNamed } from "../../kernel/spans.ts"

export class SquarePosts extends Effect.Service<SquarePosts>()("federation/SquarePosts", {
  dependencies: [Identities.Default, NodeDocuments.Default, MessagesRepository.Default],
  effect: Effect.gen(function* () {
    const identities = yield* Identities
    const documents = yield* NodeDocuments
    const messages = yield* MessagesRepository
    const directory = yield* PeerDirectory

    /** One outbound row per peer for the signed document, due at once. */
    const queue = (
      kind: "post" | "retraction",
      postId: string,
      author: BeingIdentity,
      signed: SignedPost | SignedRetraction,
      peerDids: ReadonlyArray<string>
    ) =>
      Effect.gen(function* () {
        const digest = digestOf(signed)
        const passport = yield* documents.passport(author)
        const at = yield* nowIso
        yield* Effect.forEach(
          peerDids,
          (peerDid) =>
            Effect.gen(function* () {
              yield* messages.insert({
                row: queuedRow({
                  kind,
                  threadId: null,
                  messageId: postId,
                  peerDid,
                  authorDid: author.did,
                  audienceDid: peerDid,
                  digest,
                  at
                }),
                document: { message: signed, passport, attestation: yield* documents.attestation(peerDid, digest) },
                localMessageId: null
              })
            }),
          { discard: true }
        )
      })

    /** A post written on this node's square: queued for every peer the owner publishes to. */
    const published = fnNamed("federation.publishPost")(function* (post: Post) {
      const peers = (yield* directory.list).filter((peer) => peer.publish && peer.status !== "blocked")
      if (peers.length === 0) return
      const author = yield* identities.ofBeing(post.authorId)
      if (Option.isNone(author)) return
      const signed = signPayload(
        {
          v: 1 as const,
          type: "svc.post" as const,
          did: author.value.did as Did,
          id: post.id,
          name: post.authorName.slice(0, 80),
          body: post.content.slice(0, MAX_POST_BODY),
          at: post.createdAt
        },
        author.value.secretKey
      )
      yield* queue(
        "post",
        post.id,
        author.value,
        signed,
        peers.map((peer) => peer.nodeDid)
      )
    })

    /**
     * A post hidden or deleted here: withdrawn where it still waits, and retracted from every peer it was queued for.
     */
    const retracted = fnNamed("federation.retractPost")(function* (postId: string) {
      const rows = yield* messages.postRows(postId)
      const first = rows[0]
      if (first === undefined) return
      const at = yield* nowIso
      yield* messages.withdrawPost({ postId, at })
      const being = yield* identities.beingOfDid(first.authorDid)
      const author = Option.isNone(being) ? Option.none() : yield* identities.ofBeing(being.value.beingId)
      // The author is gone (and its key with it): nobody can sign a retraction any more.
      if (Option.isNone(author)) return
      // A deleted peer gets nothing more; a blocked one keeps the row waiting, as the courier does.
      const known = yield* Effect.filter([...new Set(rows.map((row) => row.peerDid))], (peerDid) =>
        Effect.map(directory.find(peerDid), Option.isSome)
      )
      if (known.length === 0) return
      const signed = signPayload(
        { v: 1 as const, type: "svc.retraction" as const, did: author.value.did as Did, id: postId, at },
        author.value.secretKey
      )
      yield* queue("retraction", postId, author.value, signed, known)
    })

    return { published, retracted } as const
  })
}) {}
