/**
 * The `project_tasks` table: a project's steps, the stored plan. A row holds the wire record and
 * what the run needs beyond it (the instruction, the planned contract, the template, the text a
 * dependent step reads); each JSON column decodes by its schema.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonValue } from "../../../kernel/contract/json.ts"
import { BooleanColumn, isIn, JsonColumn, operation } from "../../../kernel/repository.ts"
import { ModelTier } from "../../../extensions/models/contract/records.ts"
import { GeneratorStep, OutputKind } from "../../../extensions/generators/contract/step.ts"
import { DeliverableReport, PlannedContract } from "../contract/deliverable.ts"
import { Task, TaskKind, TaskStatus } from "../contract/records.ts"
import { TaskCheckpoint } from "../contract/task-checkpoint.ts"

const Keys = JsonColumn(Schema.Array(Schema.String))
const Contract = Schema.NullOr(JsonColumn(PlannedContract))
/** A generator step as written (templates unrendered), to render with its dependencies' outputs. */
const Template = Schema.NullOr(JsonColumn(GeneratorStep))
const Report = Schema.NullOr(JsonColumn(DeliverableReport))

/** A task row: the wire record and the run's own columns. */
export const TaskRecord = Schema.Struct({
  ...Task.fields,
  skills: Keys,
  dependsOn: Keys,
  input: Schema.NullOr(JsonColumn(JsonValue)),
  output: Report,
  pinned: BooleanColumn,
  position: Schema.Number,
  instruction: Schema.String,
  outputKind: OutputKind,
  /** The planned DeliverableContract (word target rendered); null: none declared. */
  contract: Contract,
  template: Template,
  /** What `{{steps.<key>.output}}` reads: the checked file's text, else the agent's last message. */
  outputText: Schema.NullOr(Schema.String),
  /** The revised file as it stood before the task first ran (the regression check's baseline). */
  earlierText: Schema.NullOr(Schema.String),
  /** Where the agent's loop stands while it waits for a decision (and until the step ends); null otherwise. */
  checkpoint: Schema.NullOr(JsonColumn(TaskCheckpoint)),
  /** What the owner added to the step when they ran it again (replay.ts); the agent is told it. */
  addedInstruction: Schema.NullOr(Schema.String)
})
export type TaskRecord = typeof TaskRecord.Type

/** A task as the plan makes it, with the id and position the store gave it. */
const NewTaskRow = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  position: Schema.Number,
  key: Schema.String,
  title: Schema.String,
  description: Schema.String,
  instruction: Schema.String,
  role: Schema.String,
  skills: Keys,
  tier: ModelTier,
  dependsOn: Keys,
  outputKind: OutputKind,
  contract: Contract,
  template: Template,
  kind: TaskKind,
  assigneeAgentId: Schema.NullOr(Schema.String),
  assigneeBeingId: Schema.NullOr(Schema.String),
  pinned: BooleanColumn
})
export type NewTaskRow = typeof NewTaskRow.Type

/** What a plan edit sets on a step not started yet: it is pending again, with nothing of a run left on it. */
const EditedTask = NewTaskRow.pick(
  "id",
  "position",
  "title",
  "description",
  "instruction",
  "role",
  "skills",
  "dependsOn",
  "kind",
  "assigneeAgentId",
  "assigneeBeingId",
  "pinned"
)
export type EditedTask = typeof EditedTask.Type

/** The columns a run changes as a task goes. */
const TaskProgress = Schema.Struct({
  id: Schema.String,
  status: TaskStatus,
  assigneeAgentId: Schema.NullOr(Schema.String),
  assigneeBeingId: Schema.NullOr(Schema.String),
  output: Report,
  outputText: Schema.NullOr(Schema.String),
  earlierText: Schema.NullOr(Schema.String),
  decisionSignalId: Schema.NullOr(Schema.String),
  checkpoint: Schema.NullOr(JsonColumn(TaskCheckpoint)),
  error: Schema.NullOr(Schema.String),
  costUsd: Schema.Number,
  startedAt: Schema.NullOr(Schema.String),
  finishedAt: Schema.NullOr(Schema.String)
})

const Id = Schema.Struct({ id: Schema.String })

export class TasksRepository extends Effect.Service<TasksRepository>()("project/TasksRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    /** The row's columns read through `t` (a select's alias), or the table's own name (an update's RETURNING). */
    const columnsOf = (t: string) =>
      sql.literal(`${t}.id, ${t}.project_id AS "projectId", ${t}.position, ${t}.key, ${t}.parent_id AS "parentId", ${t}.title,
      ${t}.description, ${t}.instruction, ${t}.role, ${t}.assignee_agent_id AS "assigneeAgentId",
      ${t}.assignee_being_id AS "assigneeBeingId", ${t}.pinned, ${t}.kind, ${t}.skills, ${t}.tier, ${t}.depends_on AS "dependsOn",
      ${t}.output_kind AS "outputKind", ${t}.contract, ${t}.template, ${t}.status, ${t}.input, ${t}.output, ${t}.output_text AS "outputText",
      ${t}.earlier_text AS "earlierText", ${t}.decision_signal_id AS "decisionSignalId", ${t}.checkpoint, ${t}.kept_in_run AS "keptInRun", ${t}.added_instruction AS "addedInstruction", ${t}.error, ${t}.cost_usd AS "costUsd", ${t}.started_at AS "startedAt", ${t}.finished_at AS "finishedAt",
      (SELECT due_at FROM project_due_dates d WHERE d.project_id = ${t}.project_id AND d.task_id = ${t}.id) AS "dueAt"`)
    const columns = columnsOf("t")
    // SQLite's RETURNING names no alias: an update answers its row through the table's name.
    const returned = columnsOf("project_tasks")

    /** In plan order. */
    const listByProject = operation(
      "projectTasks.listByProject",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: TaskRecord,
        execute: (projectId) =>
          sql`SELECT ${columns} FROM project_tasks t WHERE t.project_id = ${projectId} ORDER BY t.position`
      })
    )

    /** The plan in order with its version, read in one statement (the version the rows are of). */
    const planOf = operation(
      "projectTasks.planOf",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Schema.Struct({ ...TaskRecord.fields, planVersion: Schema.Number }),
        execute: (projectId) => sql`SELECT ${columns}, p.plan_version AS "planVersion" FROM project_tasks t
          JOIN projects p ON p.id = t.project_id WHERE t.project_id = ${projectId} ORDER BY t.position`
      })
    )

    const findById = operation(
      "projectTasks.findById",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: TaskRecord,
        execute: (id) => sql`SELECT ${columns} FROM project_tasks t WHERE t.id = ${id}`
      })
    )

    const insert = operation(
      "projectTasks.insert",
      SqlSchema.void({
        Request: NewTaskRow,
        execute: (
          task
        ) => sql`INSERT INTO project_tasks (id, project_id, position, key, title, description, instruction, role, skills,
          tier, depends_on, output_kind, contract, template, kind, assignee_agent_id, assignee_being_id, pinned, status)
        VALUES (${task.id}, ${task.projectId}, ${task.position}, ${task.key}, ${task.title}, ${task.description}, ${task.instruction},
          ${task.role}, ${task.skills}, ${task.tier}, ${task.dependsOn}, ${task.outputKind}, ${task.contract}, ${task.template},
          ${task.kind}, ${task.assigneeAgentId}, ${task.assigneeBeingId}, ${task.pinned}, 'pending')`
      })
    )

    const rewrite = operation(
      "projectTasks.rewrite",
      SqlSchema.void({
        Request: EditedTask,
        execute: (
          task
        ) => sql`UPDATE project_tasks SET position = ${task.position}, title = ${task.title}, description = ${task.description},
          instruction = ${task.instruction}, role = ${task.role}, skills = ${task.skills}, depends_on = ${task.dependsOn}, kind = ${task.kind},
          assignee_agent_id = ${task.assigneeAgentId}, assignee_being_id = ${task.assigneeBeingId}, pinned = ${task.pinned},
          status = 'pending', error = NULL, output = NULL, output_text = NULL, started_at = NULL, finished_at = NULL,
          decision_signal_id = NULL, checkpoint = NULL
        WHERE id = ${task.id}`
      })
    )

    /** A fixed step's place in the edited plan (and its dependencies, as the repair pass left them). */
    const place = operation(
      "projectTasks.place",
      SqlSchema.void({
        Request: Schema.Struct({ id: Schema.String, position: Schema.Number, dependsOn: Keys }),
        execute: ({ dependsOn, id, position }) =>
          sql`UPDATE project_tasks SET position = ${position}, depends_on = ${dependsOn} WHERE id = ${id}`
      })
    )

    /** A step an edit left out, with its due date. */
    const remove = operation(
      "projectTasks.remove",
      SqlSchema.void({
        Request: Schema.Struct({ id: Schema.String, projectId: Schema.String }),
        execute: ({ id, projectId }) =>
          sql`DELETE FROM project_due_dates WHERE project_id = ${projectId} AND task_id = ${id}`.pipe(
            Effect.zipRight(sql`DELETE FROM project_tasks WHERE id = ${id}`)
          )
      })
    )

    /**
     * The run takes a step that is still waiting, with who does it, as it read it at the plan's version; none found
     * when an edit removed or changed the plan since, or the run already took it, so a step is never started twice,
     * nor after it was edited away, nor as it stood before an edit. The row as claimed.
     */
    const claim = operation(
      "projectTasks.claim",
      SqlSchema.findOne({
        Request: Schema.Struct({
          id: Schema.String,
          agentId: Schema.NullOr(Schema.String),
          beingId: Schema.NullOr(Schema.String),
          at: Schema.String,
          planVersion: Schema.Number
        }),
        Result: TaskRecord,
        execute: ({
          agentId,
          at,
          beingId,
          id,
          planVersion
        }) => sql`UPDATE project_tasks SET status = 'running', assignee_agent_id = ${agentId},
          assignee_being_id = ${beingId}, started_at = ${at}, finished_at = NULL, error = NULL
        WHERE id = ${id} AND status IN ('pending', 'ready')
          AND (SELECT plan_version FROM projects WHERE projects.id = project_tasks.project_id) = ${planVersion}
        RETURNING ${returned}`
      })
    )

    /** The row as written; none when it is gone. */
    const update = operation(
      "projectTasks.update",
      SqlSchema.findOne({
        Request: TaskProgress,
        execute: (
          task
        ) => sql`UPDATE project_tasks SET status = ${task.status}, assignee_agent_id = ${task.assigneeAgentId},
          assignee_being_id = ${task.assigneeBeingId}, output = ${task.output}, output_text = ${task.outputText}, earlier_text = ${task.earlierText}, error = ${task.error},
          decision_signal_id = ${task.decisionSignalId}, checkpoint = ${task.checkpoint},
          cost_usd = ${task.costUsd}, started_at = ${task.startedAt}, finished_at = ${task.finishedAt}
        WHERE id = ${task.id} RETURNING ${returned}`,
        Result: TaskRecord
      })
    )

    const assign = operation(
      "projectTasks.assign",
      SqlSchema.findAll({
        Request: Schema.Struct({ id: Schema.String, agentId: Schema.String, beingId: Schema.NullOr(Schema.String) }),
        Result: TaskRecord,
        execute: ({ agentId, beingId, id }) =>
          sql`UPDATE project_tasks SET assignee_agent_id = ${agentId}, assignee_being_id = ${beingId} WHERE id = ${id}
          RETURNING ${returned}`
      })
    )

    /** A person's step the run waits on, handed in: only its person, only while it runs. The id when it was. */
    const finishByPerson = operation(
      "projectTasks.finishByPerson",
      SqlSchema.findAll({
        Request: Schema.Struct({
          id: Schema.String,
          beingId: Schema.String,
          outputText: Schema.String,
          at: Schema.String
        }),
        Result: Id,
        execute: ({
          at,
          beingId,
          id,
          outputText
        }) => sql`UPDATE project_tasks SET status = 'done', output_text = ${outputText},
          error = NULL, finished_at = ${at}
        WHERE id = ${id} AND assignee_being_id = ${beingId} AND kind = 'work' AND status = 'running' RETURNING id`
      })
    )

    /**
     * A gate's answer from its person while the run waits on it: done with the note, or failed with it. The id when it
     * was.
     */
    const settleApproval = operation(
      "projectTasks.settleApproval",
      SqlSchema.findAll({
        Request: Schema.Struct({
          id: Schema.String,
          beingId: Schema.String,
          approved: Schema.Boolean,
          note: Schema.String,
          at: Schema.String
        }),
        Result: Id,
        execute: ({
          approved,
          at,
          beingId,
          id,
          note
        }) => sql`UPDATE project_tasks SET status = ${approved ? "done" : "failed"},
          output_text = ${approved ? note : null}, error = ${approved ? null : note}, finished_at = ${at}
        WHERE id = ${id} AND assignee_being_id = ${beingId} AND kind = 'approval' AND status = 'running' RETURNING id`
      })
    )

    /**
     * Every task not done starts again; finished ones keep their final row. A step that waited for a decision keeps
     * its loop's checkpoint (its agent goes on from there, no model call again). The rows reset.
     */
    const resetUnfinished = operation(
      "projectTasks.resetUnfinished",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: TaskRecord,
        execute: (
          projectId
        ) => sql`UPDATE project_tasks SET status = 'pending', error = NULL, started_at = NULL, finished_at = NULL,
          output = NULL, output_text = NULL, decision_signal_id = NULL
        WHERE project_id = ${projectId} AND status NOT IN ('done') RETURNING ${returned}`
      })
    )

    /** The rows cancelled. */
    const cancelOpen = operation(
      "projectTasks.cancelOpen",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: TaskRecord,
        execute: (projectId) => sql`UPDATE project_tasks SET status = 'cancelled'
        WHERE project_id = ${projectId} AND status IN ('pending', 'ready', 'running', 'waiting') RETURNING ${returned}`
      })
    )

    /** Open steps of projects still going, whose owner (or whose person) is the one named: it cannot widen. */
    const openWhere = (name: string, whose: (beingId: string) => Statement.Fragment) =>
      operation(
        name,
        SqlSchema.findAll({
          Request: Schema.String,
          Result: Schema.Struct({ ...TaskRecord.fields, projectTitle: Schema.String }),
          execute: (beingId) => sql`SELECT ${columns}, p.title AS "projectTitle" FROM project_tasks t
          JOIN projects p ON p.id = t.project_id
          WHERE ${whose(beingId)} AND t.status IN ('pending', 'ready', 'running', 'waiting', 'blocked')
            AND p.status NOT IN ('done', 'failed', 'cancelled')
          ORDER BY p.created_at, t.position`
        })
      )
    const openOfOwner = openWhere("projectTasks.openOfOwner", (ownerId) => sql`p.owner_id = ${ownerId}`)
    /** Open steps a person holds in anyone's projects. */
    const openOfPerson = openWhere("projectTasks.openOfPerson", (beingId) => sql`t.assignee_being_id = ${beingId}`)

    /** How far each of the given projects is: steps done and steps in all. */
    const countsOfProjects = operation(
      "projectTasks.countsOfProjects",
      SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: Schema.Struct({ projectId: Schema.String, done: Schema.Number, total: Schema.Number }),
        execute: (projectIds) => sql`SELECT t.project_id AS "projectId",
          sum(CASE WHEN t.status = 'done' THEN 1 ELSE 0 END) AS done, count(*) AS total
        FROM project_tasks t WHERE ${isIn(sql, "t.project_id", projectIds)}
        GROUP BY t.project_id`
      })
    )

    return {
      listByProject,
      planOf,
      findById,
      insert,
      rewrite,
      place,
      remove,
      claim,
      update,
      assign,
      finishByPerson,
      settleApproval,
      resetUnfinished,
      cancelOpen,
      openOfOwner,
      openOfPerson,
      countsOfProjects
    } as const
  })
}) {}
