/**
 * The being actor's messages. One entity per being (its id is the being's id) handles them one
 * at a time, so everything that changes a being's presence or its signals is serialised per
 * being. All messages are volatile: each is a question its caller waits on and can ask again.
 */
import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import * as Schema from "effect/Schema"
import { EvidenceRef, GateStamp, GateTrigger } from "./contract/hush.ts"
import { ActionFailed, SignalClosed, SignalNotFound, UnknownOption } from "./contract/errors.ts"
import { Signal, SignalInput } from "./contract/signal.ts"

const ConnectionId = Schema.Struct({ connectionId: Schema.String })
/** The process holding the socket (kernel/process-identity.ts): its row lives as long as that process's lease. */
const OpenedSocket = Schema.Struct({ connectionId: Schema.String, processId: Schema.String })

export const Being = Entity.make("Being", [
  /** A socket of this being opened; the first one makes the being online. */
  Rpc.make("SocketOpened", { payload: OpenedSocket }),
  /** A socket of this being closed; the last one makes the being offline. */
  Rpc.make("SocketClosed", { payload: ConnectionId }),
  /** Every raise passes the hush gate (gate.ts) with its trigger; `holdUntil` asks for a later delivery. */
  Rpc.make("RaiseSignal", {
    payload: {
      input: SignalInput,
      source: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
      trigger: GateTrigger,
      holdUntil: Schema.NullOr(Schema.String),
      evidence: Schema.Array(EvidenceRef)
    },
    success: Schema.Struct({ signal: Signal, delivered: Schema.Boolean, gate: GateStamp })
  }),
  /** Lets a held signal through (published as `signal.created`); false when it was not held any more. */
  Rpc.make("ReleaseSignal", { payload: { signalId: Schema.String }, success: Schema.Boolean }),
  Rpc.make("AnswerSignal", {
    payload: { signalId: Schema.String, optionId: Schema.String },
    success: Signal,
    error: Schema.Union(SignalNotFound, SignalClosed, UnknownOption, ActionFailed)
  }),
  Rpc.make("DismissSignal", {
    payload: { signalId: Schema.String },
    success: Signal,
    error: Schema.Union(SignalNotFound, SignalClosed)
  })
])
