/**
 * The statements of a replay and a fork (replay.ts): steps run again or kept, the added instruction, the review
 * forgotten; a fork's copy of a project, its team and its steps; and a project's runs (`project_runs`, whose rows
 * the projects repository opens, moves and ends as the project's run goes).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { isIn, operation } from "../../../kernel/repository.ts"
import { ProjectRun } from "../contract/runs.ts"
import { TaskRecord } from "./tasks-repository.ts"

const Ids = Schema.Array(Schema.String)

export class ReplaysRepository extends Effect.Service<ReplaysRepository>()("project/ReplaysRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /**
     * Steps to run again: pending, with nothing of an earlier run on them (nor a decision's checkpoint) (a revision's baseline is read again when it
     * starts, from its file as replay.ts put it back).
     */
    const rerun = operation(
      "projectReplays.rerun",
      SqlSchema.void({
        Request: Ids,
        execute: (ids) => sql`UPDATE project_tasks SET status = 'pending', output = NULL, output_text = NULL,
          earlier_text = NULL, error = NULL, started_at = NULL, finished_at = NULL, cost_usd = 0, kept_in_run = NULL,
          decision_signal_id = NULL, checkpoint = NULL
        WHERE ${isIn(sql, "id", ids)}`
      })
    )

    /** Finished steps the run keeps as they are. */
    const keep = operation(
      "projectReplays.keep",
      SqlSchema.void({
        Request: Schema.Struct({ ids: Ids, run: Schema.Int }),
        execute: ({ ids, run }) => sql`UPDATE project_tasks SET kept_in_run = ${run} WHERE ${isIn(sql, "id", ids)}`
      })
    )

    const addInstruction = operation(
      "projectReplays.addInstruction",
      SqlSchema.void({
        Request: Schema.Struct({ id: Schema.String, description: Schema.String, instruction: Schema.String }),
        execute: ({ description, id, instruction }) =>
          sql`UPDATE project_tasks SET description = ${description}, added_instruction = ${instruction} WHERE id = ${id}`
      })
    )

    /** The review of the run before: the run again is reviewed again. */
    const forgetReview = operation(
      "projectReplays.forgetReview",
      SqlSchema.void({
        Request: Schema.String,
        execute: (projectId) => sql`DELETE FROM project_reviews WHERE project_id = ${projectId}`
      })
    )

    /** A fork's project row: the original's brief, generator and inputs, planned, running its first run. */
    const copyProject = operation(
      "projectReplays.copyProject",
      SqlSchema.void({
        Request: Schema.Struct({
          from: Schema.String,
          id: Schema.String,
          title: Schema.String,
          teamId: Schema.NullOr(Schema.String),
          at: Schema.String
        }),
        execute: ({
          at,
          from,
          id,
          teamId,
          title
        }) => sql`INSERT INTO projects (id, owner_id, generator_id, title, brief,
          inputs, status, team_id, cost_usd, error, run_number, planned, plan_version, created_at, updated_at)
        SELECT ${id}, owner_id, generator_id, ${title}, brief, inputs, 'running', ${teamId}, 0, NULL, 1, 1, 0, ${at}, ${at}
        FROM projects WHERE id = ${from}`
      })
    )

    /** The same members as the original's team, so the fork assembles none (and calls no model for it). */
    const copyTeam = operation(
      "projectReplays.copyTeam",
      SqlSchema.void({
        Request: Schema.Struct({ from: Schema.String, projectId: Schema.String, teamId: Schema.String }),
        execute: ({ from, projectId, teamId }) => sql`INSERT INTO project_teams (id, project_id, lead_agent_id, members,
          created_at)
        SELECT ${teamId}, ${projectId}, lead_agent_id, members, created_at FROM project_teams WHERE project_id = ${from}`
      })
    )

    /** A fork's step, whole (the replay's choices made on it by the caller). */
    const insertTask = operation(
      "projectReplays.insertTask",
      SqlSchema.void({
        Request: TaskRecord,
        execute: (task) => sql`INSERT INTO project_tasks (id, project_id, position, key, parent_id, title, description,
          instruction, role, assignee_agent_id, assignee_being_id, pinned, kind, skills, tier, depends_on, output_kind,
          contract, template, status, input, output, output_text, earlier_text, error, cost_usd, started_at, finished_at,
          kept_in_run, added_instruction)
        VALUES (${task.id}, ${task.projectId}, ${task.position}, ${task.key}, ${task.parentId}, ${task.title},
          ${task.description}, ${task.instruction}, ${task.role}, ${task.assigneeAgentId}, ${task.assigneeBeingId},
          ${task.pinned}, ${task.kind}, ${task.skills}, ${task.tier}, ${task.dependsOn}, ${task.outputKind},
          ${task.contract}, ${task.template}, ${task.status}, ${task.input}, ${task.output}, ${task.outputText},
          ${task.earlierText}, ${task.error}, ${task.costUsd}, ${task.startedAt}, ${task.finishedAt}, ${task.keptInRun},
          ${task.addedInstruction})`
      })
    )

    /** A fork's first run. */
    const insertRun = operation(
      "projectReplays.insertRun",
      SqlSchema.void({
        Request: ProjectRun,
        execute: (run) => sql`INSERT INTO project_runs (project_id, number, kind, status, cost_usd, from_task_id,
          instruction, forked_from, started_at, finished_at)
        VALUES (${run.projectId}, ${run.number}, ${run.kind}, ${run.status}, ${run.costUsd}, ${run.fromTaskId},
          ${run.instruction}, ${run.forkedFrom}, ${run.startedAt}, ${run.finishedAt})`
      })
    )

    /** A project's runs, first first. */
    const runs = operation(
      "projectReplays.runs",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: ProjectRun,
        execute: (projectId) => sql`SELECT project_id AS "projectId", number, kind, status, cost_usd AS "costUsd",
          from_task_id AS "fromTaskId", instruction, forked_from AS "forkedFrom", started_at AS "startedAt",
          finished_at AS "finishedAt"
        FROM project_runs WHERE project_id = ${projectId} ORDER BY number`
      })
    )

    return {
      rerun,
      keep,
      addInstruction,
      forgetReview,
      copyProject,
      copyTeam,
      insertTask,
      insertRun,
      runs
    } as const
  })
}) {}
