/**
 * The QA review of a finished run (strong tier): a verdict and notes, stored as the project's
 * ProjectReview. It judges; it does not change the status: a run whose review says
 * 'needs-work' is still done. A reply that cannot be read is recorded as 'needs-work' saying so,
 * rather than failing work that is finished.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Models } from "../../extensions/models/contract/models.ts"
import { ReviewVerdict } from "./contract/records.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import { runFailureOf } from "./failure.ts"

const Review = Schema.Struct({ verdict: ReviewVerdict, notes: Schema.String })
const decodeReview = Schema.decodeUnknownEither(Review)

const reviewSchema = {
  type: "object",
  properties: {
    verdict: { type: "string", enum: ["pass", "pass-with-notes", "needs-work"] },
    notes: { type: "string" }
  },
  required: ["verdict", "notes"],
  additionalProperties: false
}

const maxExcerptChars = 1500

const summaryOf = (task: TaskRecord) =>
  `### ${task.title} (${task.role})\n${(task.outputText ?? "").slice(0, maxExcerptChars)}`

export const reviewRun = (
  brief: string,
  tasks: ReadonlyArray<TaskRecord>,
  context: { readonly ownerId: string; readonly projectId: string }
) =>
  Effect.gen(function* () {
    const models = yield* Models
    const answer = yield* models
      .chatJson("strong", {
        purpose: "studio QA review",
        beingId: context.ownerId,
        projectId: context.projectId,
        messages: [
          {
            role: "system",
            content:
              "You are the QA reviewer of a studio team. Judge whether the work answers the brief: verdict 'pass', " +
              "'pass-with-notes' or 'needs-work', and notes a person can act on. Answer with JSON only."
          },
          { role: "user", content: `Brief:\n${brief}\n\nThe work:\n\n${tasks.map(summaryOf).join("\n\n")}` }
        ],
        responseFormat: { type: "json_schema", name: "review", schema: reviewSchema }
      })
      .pipe(
        Effect.map((result) => ({ value: result.value as unknown, costUsd: result.call.costUsd })),
        Effect.catchTag("ModelReplyNotJson", (error) =>
          Effect.succeed({ value: null as unknown, costUsd: error.call.costUsd })
        ),
        Effect.catchTags({
          ModelsUnavailable: (error) => Effect.fail(runFailureOf(error, "The QA review could not be called")),
          SpendCeilingReached: (error) => Effect.fail(runFailureOf(error, "The QA review could not be called")),
          ModelCallFailed: (error) => Effect.fail(runFailureOf(error, "The QA review failed"))
        })
      )
    const decoded = decodeReview(answer.value)
    return decoded._tag === "Right"
      ? { ...decoded.right, costUsd: answer.costUsd }
      : {
          verdict: "needs-work" as const,
          notes: "The reviewer's answer could not be read as a verdict; review the work yourself.",
          costUsd: answer.costUsd
        }
  })
