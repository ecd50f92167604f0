/** The peer actor's refusals (its protocol's errors), here so a caller of its `Peers` tag can name them. */
import * as Schema from "effect/Schema"

export class PeerExists extends Schema.TaggedError<PeerExists>()("PeerExists", { nodeDid: Schema.String }) {}
export class PeerMissing extends Schema.TaggedError<PeerMissing>()("PeerMissing", { nodeDid: Schema.String }) {}
