/** The node's event bus: the kernel's hub, typed by the event union of host/contract/events.ts. */
import * as Layer from "effect/Layer"
import { makeEventBus } from "../kernel/events.ts"
import { EventBus, type Audience, type NodeEvent } from "./contract/events.ts"

export const EventBusLive = Layer.scoped(EventBus, makeEventBus<Audience, NodeEvent>())
