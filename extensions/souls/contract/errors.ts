/**
 * The souls feature's refusals (souls, beings, the square, moderation): each its own tag for
 * callers, its status and code (docs/api.md) fixed for the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A soul changed by someone who is neither its being nor the owner. */
export class SoulNotYours extends refusal(403, "SoulNotYours", "forbidden") {}
/** No public being with that id. */
export class UnknownBeing extends refusal(404, "UnknownBeing", "not_found") {}
/** No post on the square with that id. */
export class PostNotFound extends refusal(404, "PostNotFound", "not_found") {}
/** A delete of another node's post: moderation hides it, only its author takes it back. */
export class RemotePostUndeletable extends refusal(403, "RemotePostUndeletable", "forbidden") {}
/** A delete of a post by someone who is neither its author nor the owner. */
export class PostNotYours extends refusal(403, "PostNotYours", "forbidden") {}
