/**
 * The `projects` table: one row per project, with its run's own columns (run number, whether the
 * plan is stored) beside the wire record's. The project's due date is read from
 * `project_due_dates` (due-dates-repository.ts writes it).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, JsonColumn, operation } from "../../../kernel/repository.ts"
import { Project, ProjectInputs, ProjectStatus } from "../contract/records.ts"

const { outputs: _outputs, ...projectFields } = Project.fields

/** A project row: the record without its outputs (they have their own table), and the run's columns. */
export const ProjectRow = Schema.Struct({
  ...projectFields,
  inputs: JsonColumn(ProjectInputs),
  runNumber: Schema.Number,
  planned: BooleanColumn
})
export type ProjectRow = typeof ProjectRow.Type

const NewProject = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  generatorId: Schema.NullOr(Schema.String),
  title: Schema.String,
  brief: Schema.String,
  inputs: JsonColumn(ProjectInputs),
  at: Schema.String
})

const OwnerPage = Schema.Struct({
  ownerId: Schema.String,
  standing: Schema.Literal("any", "done", "stopped", "going"),
  limit: Schema.NullOr(Schema.Int),
  offset: Schema.Int
})
export type OwnerPage = typeof OwnerPage.Type

const ProjectSearch = Schema.Struct({ ownerId: Schema.String, words: Schema.Array(Schema.String), limit: Schema.Int })

/** A LIKE pattern for text holding `word` (lower-cased) as it is: the escape character, `%` and `_` are escaped. */
const containing = (word: string) => `%${word.toLowerCase().replace(/[\\%_]/g, (special) => `\\${special}`)}%`

const StatusChange = Schema.Struct({
  id: Schema.String,
  status: ProjectStatus,
  error: Schema.NullOr(Schema.String),
  at: Schema.String
})
const Moment = Schema.Struct({ id: Schema.String, at: Schema.String })

/** A run that is over begins again: a resume, or a replay from a step (with what the owner added to it). */
const Reopening = Schema.Struct({
  id: Schema.String,
  at: Schema.String,
  kind: Schema.Literal("resume", "replay"),
  fromTaskId: Schema.NullOr(Schema.String),
  instruction: Schema.NullOr(Schema.String)
})

export class ProjectsRepository extends Effect.Service<ProjectsRepository>()("project/ProjectsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns =
      sql.literal(`p.id, p.owner_id AS "ownerId", p.generator_id AS "generatorId", p.title, p.brief, p.inputs,
      p.status, p.team_id AS "teamId",
      (SELECT COALESCE(SUM(r.cost_usd), 0) FROM project_runs r WHERE r.project_id = p.id) AS "costUsd", p.error, p.run_number AS "runNumber", p.planned, p.plan_version AS "planVersion",
      (SELECT due_at FROM project_due_dates d WHERE d.project_id = p.id AND d.task_id = '') AS "dueAt",
      p.created_at AS "createdAt", p.updated_at AS "updatedAt"`)

    /** The project's current run's row (project_runs). */
    const currentRun = (id: string) =>
      sql`project_id = ${id} AND number = (SELECT run_number FROM projects WHERE id = ${id})`

    /** The current run follows the project's status, and ends when the project's run is over. */
    const runMoves = (id: string, status: string, at: string) =>
      sql`UPDATE project_runs SET status = ${status},
        finished_at = ${status === "done" || status === "failed" || status === "cancelled" ? at : null}
      WHERE ${currentRun(id)} AND finished_at IS NULL`

    const findById = operation(
      "projects.findById",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: ProjectRow,
        execute: (id) => sql`SELECT ${columns} FROM projects p WHERE p.id = ${id}`
      })
    )

    /**
     * The owner's projects, newest first: a page of them (`limit`, `offset`), or every one when
     * `limit` is null; `standing` keeps the done ones, the stopped ones (failed, cancelled, a draft), the
     * ones still going, or any.
     */
    const listByOwner = operation(
      "projects.listByOwner",
      SqlSchema.findAll({
        Request: OwnerPage,
        Result: ProjectRow,
        execute: ({ ownerId, standing, limit, offset }) => {
          const which =
            standing === "done"
              ? sql`AND p.status = 'done'`
              : standing === "stopped"
                ? sql`AND p.status IN ('failed', 'cancelled', 'draft')`
                : standing === "going"
                  ? sql`AND p.status NOT IN ('done', 'failed', 'cancelled', 'draft')`
                  : sql``
          const page = limit === null ? sql`` : sql`LIMIT ${limit} OFFSET ${offset}`
          return sql`SELECT ${columns} FROM projects p WHERE p.owner_id = ${ownerId} ${which}
            ORDER BY p.created_at DESC, p.id ${page}`
        }
      })
    )

    /** The ids of the owner's projects, newest first: what a caller needs that only asks which are theirs. */
    const idsByOwner = operation(
      "projects.idsByOwner",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (ownerId) =>
          sql`SELECT p.id FROM projects p WHERE p.owner_id = ${ownerId} ORDER BY p.created_at DESC, p.id`
      })
    )

    /**
     * The owner's projects whose title or brief holds every word (newest first, at most `limit`):
     * the omnibar's search. Each word is matched literally, `%` and `_` included, by LIKE on
     * lower-cased text (portable to PostgreSQL; SQLite's lower() folds ASCII letters only).
     */
    const search = operation(
      "projects.search",
      SqlSchema.findAll({
        Request: ProjectSearch,
        Result: Project.pick("id", "title", "status"),
        execute: ({ ownerId, words, limit }) => {
          const holds = words.map((word) => {
            const pattern = containing(word)
            return sql`(lower(p.title) LIKE ${pattern} ESCAPE '\\' OR lower(p.brief) LIKE ${pattern} ESCAPE '\\')`
          })
          return sql`SELECT p.id, p.title, p.status FROM projects p WHERE p.owner_id = ${ownerId} AND ${sql.and(holds)}
          ORDER BY p.created_at DESC, p.id LIMIT ${limit}`
        }
      })
    )

    const ownerOf = operation(
      "projects.ownerOf",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ ownerId: Schema.String }),
        execute: (id) => sql`SELECT owner_id AS "ownerId" FROM projects WHERE id = ${id}`
      })
    )

    /** A new project is planning: its run is sent right after. */
    const insert = operation(
      "projects.insert",
      SqlSchema.void({
        Request: NewProject,
        execute: (project) =>
          sql.withTransaction(
            sql`INSERT INTO projects (id, owner_id, generator_id, title, brief, inputs, status, created_at, updated_at)
        VALUES (${project.id}, ${project.ownerId}, ${project.generatorId}, ${project.title}, ${project.brief}, ${project.inputs},
          'planning', ${project.at}, ${project.at})`.pipe(
              Effect.zipRight(sql`INSERT INTO project_runs (project_id, number, kind, status, started_at)
              VALUES (${project.id}, 1, 'start', 'planning', ${project.at})`)
            )
          )
      })
    )

    /** A run's own move; a cancelled project stays cancelled whatever its run was about to write. */
    const setStatus = operation(
      "projects.setStatus",
      SqlSchema.void({
        Request: StatusChange,
        execute: (change) =>
          sql.withTransaction(
            sql`UPDATE projects SET status = ${change.status}, error = ${change.error}, updated_at = ${change.at}
        WHERE id = ${change.id} AND status != 'cancelled'`.pipe(
              Effect.zipRight(runMoves(change.id, change.status, change.at))
            )
          )
      })
    )

    /** Cancels a run that is not over; none found when it was already over. */
    const cancel = operation(
      "projects.cancel",
      SqlSchema.findOne({
        Request: Moment,
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ at, id }) =>
          Effect.tap(
            sql`UPDATE projects SET status = 'cancelled', updated_at = ${at}
        WHERE id = ${id} AND status IN ('draft', 'planning', 'running', 'review') RETURNING id`,
            (rows) => (rows.length === 0 ? Effect.void : runMoves(id, "cancelled", at))
          )
      })
    )

    /**
     * A run that is over back to 'running' under its next run number, and that run's row: a resume (of a failed or
     * cancelled run) or a replay (of any run that is over, replay.ts). None found when the run is not over.
     */
    const reopenAs = (request: typeof Reopening.Type) => {
      const over = request.kind === "resume" ? sql`('failed', 'cancelled')` : sql`('done', 'failed', 'cancelled')`
      const reopened = Effect.tap(
        sql<{
          readonly runNumber: number
        }>`UPDATE projects SET status = 'running', error = NULL, run_number = run_number + 1, updated_at = ${request.at}
        WHERE id = ${request.id} AND status IN ${over} RETURNING run_number AS "runNumber"`,
        (rows) =>
          Effect.forEach(
            rows,
            ({
              runNumber
            }) => sql`INSERT INTO project_runs (project_id, number, kind, status, from_task_id, instruction, started_at)
            VALUES (${request.id}, ${runNumber}, ${request.kind}, 'running', ${request.fromTaskId}, ${request.instruction}, ${request.at})`
          )
      )
      return sql.withTransaction(reopened)
    }

    const reopenRun = operation(
      "projects.reopen",
      SqlSchema.findOne({ Request: Reopening, Result: Schema.Struct({ runNumber: Schema.Number }), execute: reopenAs })
    )

    /** A failed or cancelled run back to 'running' under its next run number; none found when it is not. */
    const reopen = ({ at, id }: typeof Moment.Type) =>
      reopenRun({ id, at, kind: "resume", fromTaskId: null, instruction: null })

    /**
     * Spend added to the project's current run: one statement. The project's spend is its runs' summed when read
     * (`columns`), so a task's cost is not written twice in a transaction (docs/decisions.md, "A project's spend is
     * its runs'"); `projects.cost_usd` is no longer written.
     */
    const addCost = operation(
      "projects.addCost",
      SqlSchema.void({
        Request: Schema.Struct({ id: Schema.String, usd: Schema.Number }),
        execute: ({ id, usd }) => sql`UPDATE project_runs SET cost_usd = cost_usd + ${usd} WHERE ${currentRun(id)}`
      })
    )

    /** The plan is stored: the run is running (unless cancelled meanwhile). */
    const markPlanned = operation(
      "projects.markPlanned",
      SqlSchema.void({
        Request: Moment,
        execute: ({ at, id }) => sql`UPDATE projects SET planned = 1, status = 'running', updated_at = ${at}
        WHERE id = ${id} AND status != 'cancelled'`
      })
    )

    const setTeam = operation(
      "projects.setTeam",
      SqlSchema.void({
        Request: Schema.Struct({ id: Schema.String, teamId: Schema.String }),
        execute: ({ id, teamId }) => sql`UPDATE projects SET team_id = ${teamId} WHERE id = ${id}`
      })
    )

    /** An edit made on the plan's current version raises it; none found when the plan changed meanwhile. */
    const bumpPlanVersion = operation(
      "projects.bumpPlanVersion",
      SqlSchema.findOne({
        Request: Schema.Struct({ id: Schema.String, version: Schema.Number, at: Schema.String }),
        Result: Schema.Struct({ planVersion: Schema.Number }),
        execute: ({ at, id, version }) => sql`UPDATE projects SET plan_version = plan_version + 1, updated_at = ${at}
        WHERE id = ${id} AND plan_version = ${version} RETURNING plan_version AS "planVersion"`
      })
    )

    return {
      reopenRun,
      findById,
      listByOwner,
      idsByOwner,
      search,
      ownerOf,
      insert,
      setStatus,
      cancel,
      reopen,
      addCost,
      markPlanned,
      setTeam,
      bumpPlanVersion
    } as const
  })
}) {}
