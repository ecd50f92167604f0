/**
 * A project's outputs are what its workspace holds: recorded when a run finishes, and again
 * when something writes there afterwards — an approved world-acting call the run asked for
 * (a build the owner said "Do it" to lands after the run is done).
 */
import * as Effect from "effect/Effect"
import { fileRootFor } from "../../kernel/extensions/file-root.ts"
import { Settings } from "../../kernel/settings.ts"
import { outputKindOf } from "./contract/output-types.ts"
import { listWorkspace } from "./outputs.ts"
import { ProjectStore } from "./store.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const recordOutputs = (projectId: string) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const settings = yield* Settings
    const project = yield* store.project(projectId)
    if (project === null) return
    const ownerId = project.ownerId
    const files = yield* Effect.promise(() => listWorkspace(fileRootFor(settings, ownerId, projectId).dir))
    yield* store.saveOutputs(
      projectId,
      files.map((file) => ({
        taskId: null,
        kind: outputKindOf(file.path),
        name: file.path.slice(file.path.lastIndexOf("/") + 1),
        path: file.path,
        size: file.size
      }))
    )
    yield* store.trace(projectId, {
      kind: "output",
      text: `${files.length} output file${files.length === 1 ? "" : "s"}: ${files.map((file) => file.path).join(", ")}`,
      data: { files }
    })
  }).pipe(spanNamed("project.outputs"))
