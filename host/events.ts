/** The node's event bus in one process: the kernel's hub, typed by the events the features declare. */
import * as Layer from "effect/Layer"
import type { Audience, BusEvent } from "../kernel/contract/events.ts"
import { EventBus, makeEventBus } from "../kernel/events.ts"

export const EventBusLive = Layer.scoped(EventBus, makeEventBus<Audience, BusEvent>())
