/**
 * The installed plugins, read once for the whole app. The rail's module places, the desktop's
 * widgets, a project's viewers and editors and a module's place all need GET /api/plugins; one
 * answer serves them until an install or uninstall (`plugins-changed`) or another session
 * (`session-changed`). A failed read is not kept, so the next asker tries again.
 */
import type * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { flatMap, promise, runPromiseExit } from "effect/Effect"
import type { InstalledPlugin } from "../../kernel/contract/plugins.ts"
import type { NodeClient } from "./client.ts"

type Answer = Exit.Exit<ReadonlyArray<InstalledPlugin>, unknown>

let answer: Promise<Answer> | null = null
const forget = () => {
  answer = null
}
window.addEventListener("plugins-changed", forget)
window.addEventListener("session-changed", forget)

export const installedPlugins = (client: NodeClient): Effect.Effect<ReadonlyArray<InstalledPlugin>, unknown> =>
  flatMap(
    promise(() => (answer ??= runPromiseExit(client.plugins.listPlugins()))),
    (exit) => {
      if (Exit.isFailure(exit)) forget()
      return exit
    }
  )
