/** The actors' refusal (docs/api.md): its own tag for callers, its status and code fixed for the wire. */
import { refusal } from "./errors.ts"

/** The actor's mailbox is full: the node is busy, try again in a moment. */
export class ActorBusy extends refusal(503, "ActorBusy", "busy") {}
