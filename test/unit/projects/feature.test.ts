/**
 * The project feature built alone: its one layer over in-memory SQLite, the cluster's single
 * runner and the test layers of its outside edges; no HTTP host. A generator run is started
 * through Projects and followed on the event bus to where a node without a model leaves it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { actorsLayer } from "../../../kernel/actors/index.ts"
import { EventBus } from "../../../kernel/events.ts"
import { ProjectFeature } from "../../../actors/project/layer.ts"
import { Projects } from "../../../actors/project/projects.ts"
import { insertOwner, nextMatching, owner, projectTestLayers, teaNotes } from "./test-layers.ts"

describe("the project feature on its own", () => {
  const { alerts, layer } = projectTestLayers()
  const feature = ProjectFeature.pipe(Layer.provideMerge(actorsLayer()), Layer.provideMerge(layer))

  it.scopedLive(
    "starts a generator's run, plans its steps and staffs them, and fails it plainly when no model can be called",
    () =>
      Effect.gen(function* () {
        yield* insertOwner
        const deliveries = yield* (yield* EventBus).subscribe
        const projects = yield* Projects

        const created = yield* projects.create(owner, { generatorId: teaNotes.slug, inputs: { tea: "Sencha" } })
        expect(created).toMatchObject({
          title: "Tea notes: Sencha",
          generatorId: teaNotes.id,
          status: "planning",
          inputs: { tea: "Sencha" }
        })

        const failed = yield* nextMatching(deliveries, ({ audience, event }) =>
          event.type === "project.updated" && event.project.id === created.id && event.project.status === "failed"
            ? { audience, project: event.project }
            : undefined
        )
        expect(failed.audience).toEqual({ kind: "being", beingId: owner.beingId })
        expect(failed.project.error).toBe(
          'Task "Notes on Sencha" could not call its model: No model is bound to the cheap tier.'
        )

        const detail = yield* projects.get(owner, created.id)
        expect(detail.tasks.map((task) => [task.key, task.title, task.status])).toEqual([
          ["notes", "Notes on Sencha", "cancelled"],
          ["page", "A page", "cancelled"]
        ])
        expect(detail.tasks[1]!.dependsOn).toEqual([detail.tasks[0]!.id])
        expect(detail.team?.members.map((member) => [member.role, member.source])).toEqual([
          ["researcher", "persona"],
          ["writer", "persona"]
        ])
        expect(alerts).toEqual([
          {
            ownerId: owner.beingId,
            projectId: created.id,
            title: "Project failed: Tea notes: Sencha",
            body: failed.project.error
          }
        ])
        const trace = yield* projects.trace(owner, created.id, 0, 100)
        expect(trace.at(-1)).toMatchObject({ kind: "error", text: failed.project.error, data: null })

        // Another being's read of it finds nothing.
        const stranger = yield* Effect.flip(projects.get({ beingId: "someone-else", isOwner: false }, created.id))
        expect(stranger.error).toBe("project_not_found")
      }).pipe(Effect.provide(feature)),
    { timeout: 20_000 }
  )
})
