/** Time's routes: to-dos, calendar and reminders, and the hush gate's settings. */
import * as Layer from "effect/Layer"
import { TwinTimeHandlers } from "./handlers.ts"
import { TwinHushHandlers } from "./hush-handlers.ts"

export const timeRoutes = Layer.mergeAll(TwinTimeHandlers, TwinHushHandlers)

/** The time feature's contract tag (to-dos and the agenda) for the features that call it: the MCP server's tools. */
export { TwinTimeLive } from "./twin-time.ts"
