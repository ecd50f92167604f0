/**
 * The backups feature: its routes over the Backups service (one writer at a time), which reads the node's settings
 * and its own (settings.ts).
 */
import * as Layer from "effect/Layer"
import { Backups } from "./backups.ts"
import { BackupsHandlers } from "./handlers.ts"

export const backupsRoutes = BackupsHandlers.pipe(Layer.provide(Backups.Default))
