/**
 * The project actor on test layers through @effect/cluster's test client: messages go straight to
 * the entity's handlers (no runner, no message storage, no HTTP), and the test reads what the
 * project's rows and the owner's events say afterwards.
 */
import * as Entity from "@effect/cluster/Entity"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import type { BusEvent } from "../../../kernel/contract/events.ts"
import { EventBus } from "../../../kernel/events.ts"
import { ProjectLive } from "../../../actors/project/behaviour.ts"
import { ProjectActor } from "../../../actors/project/protocol.ts"
import { ProjectStore } from "../../../actors/project/store.ts"
import { insertOwner, owner, projectTestLayers } from "./test-layers.ts"

describe("the project actor", () => {
  const { alerts, layer } = projectTestLayers()
  const environment = Layer.mergeAll(ProjectStore.Default, ShardingConfig.layer()).pipe(Layer.provideMerge(layer))

  it.scopedLive(
    "answers Run once the run is over: a brief whose planner cannot be called fails with the reason, and a second Run leaves it alone",
    () =>
      Effect.gen(function* () {
        yield* insertOwner
        const store = yield* ProjectStore
        const deliveries = yield* (yield* EventBus).subscribe
        const projectId = "project-tea"
        yield* store.insertProject({
          id: projectId,
          ownerId: owner.beingId,
          generatorId: null,
          title: "A tea guide",
          brief: "Write a tea guide.",
          inputs: {}
        })

        const actor = yield* (yield* Entity.makeTestClient(ProjectActor, ProjectLive))(projectId)
        yield* actor.Run({ projectId, runNumber: 1 })

        const reason = "The planner could not be called: No model is bound to the strong tier."
        expect(yield* store.project(projectId)).toMatchObject({ status: "failed", error: reason })
        expect(yield* store.tasks(projectId)).toEqual([])
        expect((yield* store.traces(projectId, 0, 100)).map((event) => [event.kind, event.text])).toEqual([
          ["error", reason]
        ])
        expect(alerts.map((alert) => alert.title)).toEqual(["Project failed: A tea guide"])

        const events: Array<BusEvent> = [...(yield* Queue.takeAll(deliveries))].map((delivery) => delivery.event)
        expect(
          events.map((event) =>
            event.type === "project.updated" ? `${event.type}:${event.project.status}` : event.type
          )
        ).toEqual(["project.updated:planning", "project.updated:failed", "trace"])

        // The run is over: a redelivered Run changes nothing and alerts nobody again.
        yield* actor.Run({ projectId, runNumber: 1 })
        expect(yield* store.project(projectId)).toMatchObject({ status: "failed", error: reason })
        expect(alerts).toHaveLength(1)
        expect(yield* Queue.size(deliveries)).toBe(0)
      }).pipe(Effect.provide(environment)),
    { timeout: 20_000 }
  )
})
