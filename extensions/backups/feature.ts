/**
 * "Your data": backups (their routes over the Backups service, one writer at a time) and the export of one person's
 * data (export/), the import into one's twin (imports/), and the backup schedule (schedule.ts) and the register page's restore (setup-restore.ts), as one feature of the node's list.
 */
import * as Layer from "effect/Layer"
import { Backups } from "./backups.ts"
import { ExportHandlers } from "./export/handlers.ts"
import { BackupsHandlers } from "./handlers.ts"
import { ImportHandlers } from "./imports/handlers.ts"
import { backupSchedule, ScheduledOutcomes } from "./schedule.ts"
import { SetupRestoreHandlers } from "./setup-handlers.ts"

export const backupsRoutes = Layer.mergeAll(
  BackupsHandlers,
  backupSchedule,
  ExportHandlers,
  ImportHandlers,
  SetupRestoreHandlers
).pipe(Layer.provide(Layer.merge(Backups.Default, ScheduledOutcomes.Default)))
