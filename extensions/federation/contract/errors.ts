/**
 * Federation's refusals (peers, conversations, seeds): each its own tag for callers, its status and
 * code (docs/api.md) fixed for the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** No peer with that node did. */
export class PeerNotFound extends refusal(404, "PeerNotFound", "peer_not_found") {}
/** A peer or seed named by this node's own did (or a handle this node lists). */
export class OwnNode extends refusal(400, "OwnNode", "own_node") {}
/** An add of a node that is a peer already. */
export class PeerAlreadyAdded extends refusal(409, "PeerAlreadyAdded", "peer_exists") {}
/** A handle the directory could not resolve to a node. */
export class HandleNotResolved extends refusal(404, "HandleNotResolved", "handle_not_resolved") {}
/** A thread that is not one of the caller's federated conversations. */
export class ConversationNotFound extends refusal(404, "ConversationNotFound", "conversation_not_found") {}
/** A conversation opened with a did that lives on this node. */
export class RemoteIsLocal extends refusal(400, "RemoteIsLocal", "remote_is_local") {}
/** No seed paired with that did. */
export class SeedNotFound extends refusal(404, "SeedNotFound", "seed_not_found") {}
/** A pairing of a seed that is paired already. */
export class SeedAlreadyPaired extends refusal(409, "SeedAlreadyPaired", "seed_exists") {}
/** A seed's pairing asks for a handle another being holds. */
export class SeedHandleTaken extends refusal(409, "SeedHandleTaken", "handle_taken") {}
/** A seed's did is another being's already. */
export class SeedDidTaken extends refusal(400, "SeedDidTaken", "did_taken") {}
