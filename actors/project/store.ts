/**
 * Reads and writes of project rows, and the events that say they changed: every change of a
 * project, a task or the trace is published to the project owner's being right after it is
 * written, so a watcher never sees an event for a row it cannot read. The SQL lives here; what a
 * route may see and what a run may do are decided by projects.ts and the project actor.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import { dieOnSqlError } from "../../kernel/database.ts"
import { EventBus } from "../../host/contract/events.ts"
import { nowIso } from "../../kernel/time.ts"
import type { ModelTier } from "../../extensions/models/contract/records.ts"
import type { OutputKind } from "../../extensions/generators/contract/step.ts"
import type {
  Project,
  ProjectOutput,
  ProjectReview,
  ProjectStatus,
  ReviewVerdict,
  Task,
  TaskStatus,
  Team,
  TeamMemberView,
  TraceEvent,
  TraceKind
} from "./contract/records.ts"

export const newId = () => randomBytes(12).toString("base64url")

export const fileUrl = (projectId: string, path: string) =>
  `/api/files/project/${projectId}/${path.split("/").map(encodeURIComponent).join("/")}`

interface ProjectRow {
  readonly id: string
  readonly ownerId: string
  readonly generatorId: string | null
  readonly title: string
  readonly brief: string
  readonly inputs: string
  readonly status: ProjectStatus
  readonly teamId: string | null
  readonly costUsd: number
  readonly error: string | null
  readonly runNumber: number
  readonly planned: number
  readonly dueAt: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

/** A task row with what the run needs beyond the wire record. */
export interface TaskRecord extends Task {
  readonly position: number
  readonly instruction: string
  readonly outputKind: OutputKind
  /** The planned DeliverableContract (word target rendered), as JSON; null: none declared. */
  readonly contract: unknown
  /** A generator step as written (templates unrendered), to render with its dependencies' outputs. */
  readonly template: unknown
  /** What `{{steps.<key>.output}}` reads: the checked file's text, else the agent's last message. */
  readonly outputText: string | null
  /** The revised file as it stood before the task first ran (the regression check's baseline). */
  readonly earlierText: string | null
}

interface TaskRow extends Omit<TaskRecord, "skills" | "dependsOn" | "input" | "output" | "contract" | "template"> {
  readonly skills: string
  readonly dependsOn: string
  readonly input: string | null
  readonly output: string | null
  readonly contract: string | null
  readonly template: string | null
}

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text))

const toTaskRecord = (row: TaskRow): TaskRecord => ({
  ...row,
  skills: JSON.parse(row.skills),
  dependsOn: JSON.parse(row.dependsOn),
  input: parse(row.input),
  output: parse(row.output),
  contract: parse(row.contract),
  template: parse(row.template)
})

/** The wire record: the run's own columns stay inside. */
export const toTask = ({ position: _p, instruction: _i, outputKind: _o, contract: _c, template: _t, outputText: _x, earlierText: _e, ...task }: TaskRecord): Task => task

/** A task as the plan makes it; the store gives it an id and its row. */
export interface NewTask {
  readonly key: string
  readonly title: string
  readonly description: string
  readonly instruction: string
  readonly role: string
  readonly skills: ReadonlyArray<string>
  readonly tier: ModelTier
  /** Keys of the tasks it waits on. */
  readonly dependsOn: ReadonlyArray<string>
  readonly outputKind: OutputKind
  readonly contract: unknown
  readonly template: unknown
}

export interface TaskChange {
  readonly status?: TaskStatus
  readonly assigneeAgentId?: string | null
  readonly output?: unknown
  readonly outputText?: string | null
  readonly earlierText?: string | null
  readonly error?: string | null
  readonly costUsd?: number
  readonly startedAt?: string | null
  readonly finishedAt?: string | null
}

export interface NewOutput {
  readonly taskId: string | null
  readonly kind: OutputKind
  readonly name: string
  readonly path: string
  readonly size: number
}

/** A team member as stored: the wire view and the prompt the run gives its agent. */
export interface StoredMember extends TeamMemberView {
  readonly systemPrompt: string
}

export interface TraceInput {
  readonly taskId?: string | null
  readonly kind: TraceKind
  readonly agentId?: string | null
  readonly text: string
  readonly data?: unknown
}

/** Statuses of a run that is over: nothing more happens until someone resumes it. */
export const finishedStatuses: ReadonlySet<ProjectStatus> = new Set(["done", "failed", "cancelled"])

export class ProjectStore extends Effect.Service<ProjectStore>()("studio/ProjectStore", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const bus = yield* EventBus
    const projectColumns = sql.literal(`p.id, p.owner_id AS ownerId, p.generator_id AS generatorId, p.title, p.brief, p.inputs,
      p.status, p.team_id AS teamId, p.cost_usd AS costUsd, p.error, p.run_number AS runNumber, p.planned,
      (SELECT due_at FROM project_due_dates d WHERE d.project_id = p.id AND d.task_id = '') AS dueAt,
      p.created_at AS createdAt, p.updated_at AS updatedAt`)
    const taskColumns = sql.literal(`t.id, t.project_id AS projectId, t.position, t.key, t.parent_id AS parentId, t.title,
      t.description, t.instruction, t.role, t.assignee_agent_id AS assigneeAgentId, t.skills, t.tier, t.depends_on AS dependsOn,
      t.output_kind AS outputKind, t.contract, t.template, t.status, t.input, t.output, t.output_text AS outputText,
      t.earlier_text AS earlierText, t.error, t.cost_usd AS costUsd, t.started_at AS startedAt, t.finished_at AS finishedAt,
      (SELECT due_at FROM project_due_dates d WHERE d.project_id = t.project_id AND d.task_id = t.id) AS dueAt`)

    const outputsOf = (projectId: string) =>
      sql<Omit<ProjectOutput, "url">>`SELECT id, kind, name, path, size, preview_url AS previewUrl
        FROM project_outputs WHERE project_id = ${projectId} ORDER BY rowid`.pipe(
        Effect.map((rows) => rows.map((row): ProjectOutput => ({ ...row, url: fileUrl(projectId, row.path) })))
      )

    const toProject = (row: ProjectRow, outputs: ReadonlyArray<ProjectOutput>): Project => ({
      id: row.id,
      ownerId: row.ownerId,
      generatorId: row.generatorId,
      title: row.title,
      brief: row.brief,
      inputs: JSON.parse(row.inputs),
      status: row.status,
      outputs,
      teamId: row.teamId,
      costUsd: row.costUsd,
      error: row.error,
      dueAt: row.dueAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt
    })

    /** The row with the run's own columns (run number, whether the plan is stored). */
    const row = (id: string) =>
      Effect.map(sql<ProjectRow>`SELECT ${projectColumns} FROM projects p WHERE p.id = ${id}`, (rows) => rows[0] ?? null).pipe(dieOnSqlError)

    const project = (id: string) =>
      Effect.gen(function* () {
        const found = yield* row(id)
        return found === null ? null : toProject(found, yield* outputsOf(id))
      }).pipe(dieOnSqlError)

    const publishProject = (id: string) =>
      Effect.flatMap(project(id), (current) =>
        current === null ? Effect.void : bus.publish({ kind: "being", beingId: current.ownerId }, { type: "project.updated", project: current }))

    const listByOwner = (ownerId: string) =>
      Effect.gen(function* () {
        const rows = yield* sql<ProjectRow>`SELECT ${projectColumns} FROM projects p WHERE p.owner_id = ${ownerId}
          ORDER BY p.created_at DESC, p.id`
        return yield* Effect.forEach(rows, (found) => Effect.map(outputsOf(found.id), (outputs) => toProject(found, outputs)))
      }).pipe(dieOnSqlError)

    const insertProject = (fields: {
      readonly id: string
      readonly ownerId: string
      readonly generatorId: string | null
      readonly title: string
      readonly brief: string
      readonly inputs: unknown
    }) =>
      Effect.gen(function* () {
        const now = yield* nowIso
        yield* sql`INSERT INTO projects (id, owner_id, generator_id, title, brief, inputs, status, created_at, updated_at)
          VALUES (${fields.id}, ${fields.ownerId}, ${fields.generatorId}, ${fields.title}, ${fields.brief},
            ${JSON.stringify(fields.inputs)}, 'planning', ${now}, ${now})`
        yield* publishProject(fields.id)
      }).pipe(dieOnSqlError)

    /** A run's own move; a cancelled project stays cancelled whatever its run was about to write. */
    const setStatus = (id: string, status: ProjectStatus, error: string | null = null) =>
      Effect.gen(function* () {
        yield* sql`UPDATE projects SET status = ${status}, error = ${error}, updated_at = ${yield* nowIso}
          WHERE id = ${id} AND status != 'cancelled'`
        yield* publishProject(id)
      }).pipe(dieOnSqlError)

    /** Cancels a run that is not over, and its open steps; false when it was already over. */
    const cancel = (id: string) =>
      Effect.gen(function* () {
        const updated = yield* sql<{ id: string }>`UPDATE projects SET status = 'cancelled', updated_at = ${yield* nowIso}
          WHERE id = ${id} AND status IN ('draft', 'planning', 'running', 'review') RETURNING id`
        if (updated.length === 0) return false
        yield* cancelOpenTasks(id)
        yield* publishProject(id)
        return true
      }).pipe(dieOnSqlError)

    /** Moves a finished run back to 'running' under a new run number; false when it is not finished. */
    const reopen = (id: string) =>
      Effect.gen(function* () {
        const updated = yield* sql<{ runNumber: number }>`UPDATE projects SET status = 'running', error = NULL,
            run_number = run_number + 1, updated_at = ${yield* nowIso}
          WHERE id = ${id} AND status IN ('failed', 'cancelled') RETURNING run_number AS runNumber`
        if (updated[0] === undefined) return null
        yield* publishProject(id)
        return updated[0].runNumber
      }).pipe(dieOnSqlError)

    const addCost = (id: string, usd: number) =>
      usd === 0 ? Effect.void : sql`UPDATE projects SET cost_usd = cost_usd + ${usd} WHERE id = ${id}`.pipe(Effect.asVoid, dieOnSqlError)

    const tasks = (projectId: string) =>
      sql<TaskRow>`SELECT ${taskColumns} FROM project_tasks t WHERE t.project_id = ${projectId} ORDER BY t.position`.pipe(
        Effect.map((rows) => rows.map(toTaskRecord)),
        dieOnSqlError
      )

    const task = (id: string) =>
      sql<TaskRow>`SELECT ${taskColumns} FROM project_tasks t WHERE t.id = ${id}`.pipe(
        Effect.map((rows) => (rows[0] === undefined ? null : toTaskRecord(rows[0]))),
        dieOnSqlError
      )

    /** The plan's checkpoint: every task row, and the project marked planned, in one transaction. */
    const savePlan = (projectId: string, planned: ReadonlyArray<NewTask>) =>
      Effect.gen(function* () {
        const ids = new Map(planned.map((item) => [item.key, newId()]))
        yield* sql.withTransaction(Effect.gen(function* () {
          for (const [position, item] of planned.entries()) {
            const dependsOn = item.dependsOn.map((key) => ids.get(key)).filter((id) => id !== undefined)
            yield* sql`INSERT INTO project_tasks (id, project_id, position, key, title, description, instruction, role, skills,
                tier, depends_on, output_kind, contract, template, status)
              VALUES (${ids.get(item.key)!}, ${projectId}, ${position}, ${item.key}, ${item.title}, ${item.description},
                ${item.instruction}, ${item.role}, ${JSON.stringify(item.skills)}, ${item.tier}, ${JSON.stringify(dependsOn)},
                ${item.outputKind}, ${item.contract === null ? null : JSON.stringify(item.contract)},
                ${item.template === null ? null : JSON.stringify(item.template)}, 'pending')`
          }
          yield* sql`UPDATE projects SET planned = 1, status = 'running', updated_at = ${yield* nowIso}
            WHERE id = ${projectId} AND status != 'cancelled'`
        }))
        yield* publishProject(projectId)
        const saved = yield* tasks(projectId)
        for (const item of saved) yield* publishTask(item)
        return saved
      }).pipe(dieOnSqlError)

    // A project's owner never changes, and every trace event and task change is published to it.
    const owners = new Map<string, string>()
    const ownerOf = (projectId: string) =>
      Effect.suspend(() => {
        const known = owners.get(projectId)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.map(sql<{ ownerId: string }>`SELECT owner_id AS ownerId FROM projects WHERE id = ${projectId}`, (rows) => {
          const ownerId = rows[0]?.ownerId ?? null
          if (ownerId !== null) owners.set(projectId, ownerId)
          return ownerId
        })
      }).pipe(dieOnSqlError)

    const publishTask = (record: TaskRecord) =>
      Effect.flatMap(ownerOf(record.projectId), (ownerId) =>
        ownerId === null ? Effect.void : bus.publish({ kind: "being", beingId: ownerId }, { type: "task.updated", task: toTask(record) }))

    const updateTask = (id: string, change: TaskChange) =>
      Effect.gen(function* () {
        const current = yield* task(id)
        if (current === null) return null
        const next = { ...current, ...change }
        yield* sql`UPDATE project_tasks SET status = ${next.status}, assignee_agent_id = ${next.assigneeAgentId},
          output = ${next.output === null ? null : JSON.stringify(next.output)}, output_text = ${next.outputText},
          earlier_text = ${next.earlierText}, error = ${next.error}, cost_usd = ${next.costUsd}, started_at = ${next.startedAt},
          finished_at = ${next.finishedAt} WHERE id = ${id}`
        yield* publishTask(next)
        return next
      }).pipe(dieOnSqlError)

    /** Tasks cut off by a crash or a cancel start again from nothing; finished ones keep their checkpoint. */
    /** A resumed run starts every unfinished task again; open pages hear of each reset. */
    const resetUnfinished = (projectId: string) =>
      Effect.gen(function* () {
        const reset = yield* sql<{ id: string }>`UPDATE project_tasks SET status = 'pending', error = NULL,
            started_at = NULL, finished_at = NULL, output = NULL, output_text = NULL
          WHERE project_id = ${projectId} AND status NOT IN ('done') RETURNING id`
        for (const { id } of reset) {
          const record = yield* task(id)
          if (record !== null) yield* publishTask(record)
        }
      }).pipe(dieOnSqlError)

    const cancelOpenTasks = (projectId: string) =>
      Effect.gen(function* () {
        const open = yield* sql<{ id: string }>`UPDATE project_tasks SET status = 'cancelled'
          WHERE project_id = ${projectId} AND status IN ('pending', 'ready', 'running') RETURNING id`
        for (const { id } of open) {
          const record = yield* task(id)
          if (record !== null) yield* publishTask(record)
        }
      }).pipe(dieOnSqlError)

    const saveTeam = (projectId: string, leadAgentId: string, members: ReadonlyArray<StoredMember>, assignments: ReadonlyMap<string, string>) =>
      Effect.gen(function* () {
        const id = newId()
        yield* sql.withTransaction(Effect.gen(function* () {
          yield* sql`INSERT INTO project_teams (id, project_id, lead_agent_id, members, created_at)
            VALUES (${id}, ${projectId}, ${leadAgentId}, ${JSON.stringify(members)}, ${yield* nowIso})`
          yield* sql`UPDATE projects SET team_id = ${id} WHERE id = ${projectId}`
          for (const [taskId, agentId] of assignments) {
            yield* sql`UPDATE project_tasks SET assignee_agent_id = ${agentId} WHERE id = ${taskId}`
          }
        }))
        yield* publishProject(projectId)
      }).pipe(dieOnSqlError)

    const team = (projectId: string) =>
      sql<{ id: string; leadAgentId: string; members: string; createdAt: string }>`SELECT id, lead_agent_id AS leadAgentId,
          members, created_at AS createdAt FROM project_teams WHERE project_id = ${projectId}`.pipe(
        Effect.map((rows) => {
          const found = rows[0]
          if (found === undefined) return null
          const members = (JSON.parse(found.members) as ReadonlyArray<StoredMember>).map(({ systemPrompt: _, ...view }): TeamMemberView => view)
          return {
            id: found.id,
            projectId,
            leadAgentId: found.leadAgentId,
            memberAgentIds: members.map((member) => member.agentId),
            members,
            createdAt: found.createdAt
          } satisfies Team
        }),
        dieOnSqlError
      )

    /** The members as the run talks to them (with their prompts); null before the team is assembled. */
    const teamMembers = (projectId: string) =>
      sql<{ members: string }>`SELECT members FROM project_teams WHERE project_id = ${projectId}`.pipe(
        Effect.map((rows) => (rows[0] === undefined ? null : (JSON.parse(rows[0].members) as ReadonlyArray<StoredMember>))),
        dieOnSqlError
      )

    /** The run's outputs, replacing any of an earlier run, in one transaction. */
    const saveOutputs = (projectId: string, outputs: ReadonlyArray<NewOutput>) =>
      sql.withTransaction(Effect.gen(function* () {
        yield* sql`DELETE FROM project_outputs WHERE project_id = ${projectId}`
        for (const output of outputs) {
          yield* sql`INSERT INTO project_outputs (id, project_id, task_id, kind, name, path, size)
            VALUES (${newId()}, ${projectId}, ${output.taskId}, ${output.kind}, ${output.name}, ${output.path}, ${output.size})`
        }
      })).pipe(Effect.zipRight(publishProject(projectId)), dieOnSqlError)

    const saveReview = (projectId: string, verdict: ReviewVerdict, notes: string) =>
      Effect.gen(function* () {
        yield* sql`INSERT INTO project_reviews (project_id, verdict, notes, created_at) VALUES (${projectId}, ${verdict}, ${notes}, ${yield* nowIso})
          ON CONFLICT (project_id) DO UPDATE SET verdict = excluded.verdict, notes = excluded.notes, created_at = excluded.created_at`
      }).pipe(dieOnSqlError)

    const review = (projectId: string) =>
      sql<ProjectReview>`SELECT project_id AS projectId, verdict, notes, created_at AS createdAt FROM project_reviews
        WHERE project_id = ${projectId}`.pipe(Effect.map((rows) => rows[0] ?? null), dieOnSqlError)

    const trace = (projectId: string, input: TraceInput) =>
      Effect.gen(function* () {
        const at = yield* nowIso
        const data = input.data ?? null
        const inserted = yield* sql<{ seq: number }>`INSERT INTO project_traces (project_id, task_id, kind, agent_id, text, data, at)
          VALUES (${projectId}, ${input.taskId ?? null}, ${input.kind}, ${input.agentId ?? null}, ${input.text}, ${JSON.stringify(data)}, ${at})
          RETURNING seq`
        const event: TraceEvent = {
          id: String(inserted[0].seq),
          projectId,
          taskId: input.taskId ?? null,
          kind: input.kind,
          agentId: input.agentId ?? null,
          text: input.text,
          data,
          at
        }
        const ownerId = yield* ownerOf(projectId)
        if (ownerId !== null) yield* bus.publish({ kind: "being", beingId: ownerId }, { type: "trace", event })
        return event
      }).pipe(dieOnSqlError)

    const traces = (projectId: string, after: number, limit: number) =>
      sql<Omit<TraceEvent, "id" | "data"> & { seq: number; data: string }>`SELECT seq, project_id AS projectId, task_id AS taskId,
          kind, agent_id AS agentId, text, data, at FROM project_traces
        WHERE project_id = ${projectId} AND seq > ${after} ORDER BY seq LIMIT ${limit}`.pipe(
        Effect.map((rows) => rows.map(({ seq, data, ...event }): TraceEvent => ({ ...event, id: String(seq), data: JSON.parse(data) }))),
        dieOnSqlError
      )

    const setDue = (projectId: string, taskId: string | null, dueAt: string | null) =>
      Effect.gen(function* () {
        const key = taskId ?? ""
        if (dueAt === null) yield* sql`DELETE FROM project_due_dates WHERE project_id = ${projectId} AND task_id = ${key}`
        else {
          yield* sql`INSERT INTO project_due_dates (project_id, task_id, due_at) VALUES (${projectId}, ${key}, ${dueAt})
            ON CONFLICT (project_id, task_id) DO UPDATE SET due_at = excluded.due_at`
        }
        yield* publishProject(projectId)
      }).pipe(dieOnSqlError)

    /** Open steps of the owner's projects: the query names the owner, so it cannot widen. */
    const openTasksOf = (ownerId: string) =>
      sql<TaskRow & { projectTitle: string }>`SELECT ${taskColumns}, p.title AS projectTitle FROM project_tasks t
          JOIN projects p ON p.id = t.project_id
        WHERE p.owner_id = ${ownerId} AND t.status IN ('pending', 'ready', 'running', 'blocked')
          AND p.status NOT IN ('done', 'failed', 'cancelled')
        ORDER BY p.created_at, t.position`.pipe(
        Effect.map((rows) => rows.map((found) => ({ projectTitle: found.projectTitle, task: toTaskRecord(found) }))),
        dieOnSqlError
      )

    const taskCounts = (ownerId: string) =>
      sql<{ projectId: string; done: number; total: number }>`SELECT t.project_id AS projectId,
          sum(t.status = 'done') AS done, count(*) AS total
        FROM project_tasks t JOIN projects p ON p.id = t.project_id WHERE p.owner_id = ${ownerId} GROUP BY t.project_id`.pipe(
        Effect.map((rows) => new Map(rows.map((found) => [found.projectId, { done: found.done, total: found.total }]))),
        dieOnSqlError
      )

    return {
      row,
      project,
      listByOwner,
      insertProject,
      setStatus,
      cancel,
      reopen,
      addCost,
      tasks,
      task,
      savePlan,
      updateTask,
      resetUnfinished,
      cancelOpenTasks,
      saveTeam,
      team,
      teamMembers,
      saveOutputs,
      saveReview,
      review,
      trace,
      traces,
      setDue,
      openTasksOf,
      taskCounts
    } as const
  })
}) {}
