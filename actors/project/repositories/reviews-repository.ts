/** The `project_reviews` table: the QA verdict of a project's last finished run, one row a project. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"
import { ProjectReview } from "../contract/records.ts"

export class ReviewsRepository extends Effect.Service<ReviewsRepository>()("project/ReviewsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findByProject = operation(
      "projectReviews.findByProject",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: ProjectReview,
        execute: (projectId) => sql`SELECT project_id AS "projectId", verdict, notes, created_at AS "createdAt"
        FROM project_reviews WHERE project_id = ${projectId}`
      })
    )

    /** A later run's review replaces the earlier one. */
    const save = operation(
      "projectReviews.save",
      SqlSchema.void({
        Request: ProjectReview,
        execute: (review) => sql`INSERT INTO project_reviews (project_id, verdict, notes, created_at)
        VALUES (${review.projectId}, ${review.verdict}, ${review.notes}, ${review.createdAt})
        ON CONFLICT (project_id) DO UPDATE SET verdict = excluded.verdict, notes = excluded.notes, created_at = excluded.created_at`
      })
    )

    return { findByProject, save } as const
  })
}) {}
