/**
 * The studio's project records on the wire: Project, Task, Team, ProjectOutput, TraceEvent,
 * ProjectReview, and the bodies of the project routes. Plain schemas only: the HTTP contract
 * (and so the web app) imports this file. Where the spec says "not shown" the fields are ours
 * (docs/decisions.md: TraceEvent, ProjectReview, the due body, portfolio and queue shapes).
 */
import * as Schema from "effect/Schema"
import { JsonValue } from "../../../kernel/contract/json.ts"
import { ModelTier } from "../../../extensions/models/contract/records.ts"
import { OutputKind } from "../../../extensions/generators/contract/step.ts"
import { DeliverableReport } from "./deliverable.ts"
import { PlanRepair } from "./plan.ts"

export const ProjectStatus = Schema.Literal("draft", "planning", "running", "review", "done", "failed", "cancelled")
export type ProjectStatus = typeof ProjectStatus.Type

/**
 * The spec's statuses and ours, `waiting`: an agent's step whose world-acting call waits for the owner's decision
 * (`decisionSignalId` names it); the run's other steps go on meanwhile.
 */
export const TaskStatus = Schema.Literal(
  "pending",
  "ready",
  "running",
  "waiting",
  "blocked",
  "done",
  "failed",
  "cancelled"
)
export type TaskStatus = typeof TaskStatus.Type

/** Ours: `work` is done by an agent or a person; `approval` is a gate that waits for a person's yes or no. */
export const TaskKind = Schema.Literal("work", "approval")
export type TaskKind = typeof TaskKind.Type

export const ProjectOutput = Schema.Struct({
  id: Schema.String,
  kind: OutputKind,
  name: Schema.String,
  /** Relative to the project's workspace folder. */
  path: Schema.String,
  /** `/api/files/project/<projectId>/<path>` */
  url: Schema.String,
  size: Schema.Number,
  previewUrl: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ProjectOutput" })
export type ProjectOutput = typeof ProjectOutput.Type

/** What the project was started with: a generator's form values, or nothing for a brief. */
export const ProjectInputs = Schema.Record({ key: Schema.String, value: JsonValue })
export type ProjectInputs = typeof ProjectInputs.Type

export const Project = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  generatorId: Schema.NullOr(Schema.String),
  title: Schema.String,
  brief: Schema.String,
  inputs: ProjectInputs,
  status: ProjectStatus,
  outputs: Schema.Array(ProjectOutput),
  teamId: Schema.NullOr(Schema.String),
  costUsd: Schema.Number,
  /** Ours: why a failed run failed, in words for a person; null otherwise. */
  error: Schema.NullOr(Schema.String),
  /** Ours: the project's target date (PUT .../due), held apart from the row's own fields. */
  dueAt: Schema.NullOr(Schema.String),
  /** Ours: the plan's version, raised by every plan edit; an edit names the version it was made on. */
  planVersion: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotations({ identifier: "Project" })
export type Project = typeof Project.Type

export const Task = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  parentId: Schema.NullOr(Schema.String),
  /** Ours: the plan's (or generator step's) id of the task, what `{{steps.<key>.output}}` names. */
  key: Schema.String,
  title: Schema.String,
  description: Schema.String,
  role: Schema.String,
  assigneeAgentId: Schema.NullOr(Schema.String),
  /** Ours: the person whose step it is (a seat of the project's crew); null for an agent's step. */
  assigneeBeingId: Schema.NullOr(Schema.String),
  /** Ours: the owner chose the assignee in a plan edit; false: the run's team assigns the step by its role. */
  pinned: Schema.Boolean,
  kind: TaskKind,
  skills: Schema.Array(Schema.String),
  tier: ModelTier,
  dependsOn: Schema.Array(Schema.String),
  status: TaskStatus,
  /** Ours: while the step is `waiting`, the decision signal on the owner's desktop it waits for; else null. */
  decisionSignalId: Schema.NullOr(Schema.String),
  /** The spec's `Json | null`; no step of ours is given one yet. */
  input: Schema.NullOr(JsonValue),
  /** The step's DeliverableReport once checked. */
  output: Schema.NullOr(DeliverableReport),
  error: Schema.NullOr(Schema.String),
  costUsd: Schema.Number,
  startedAt: Schema.NullOr(Schema.String),
  finishedAt: Schema.NullOr(Schema.String),
  dueAt: Schema.NullOr(Schema.String),
  /**
   * Ours: the run (its number) that kept this finished step's work from an earlier run rather than running it again
   * (a replay or a fork from a later step); null when its work is the last run's own that touched it.
   */
  keptInRun: Schema.NullOr(Schema.Int)
}).annotations({ identifier: "Task" })
export type Task = typeof Task.Type

export const TeamMemberView = Schema.Struct({
  agentId: Schema.String,
  role: Schema.String,
  name: Schema.String,
  avatar: Schema.String,
  /**
   * 'saved': one of the owner's agents reused; 'persona': an ephemeral agent built for this run;
   * 'person': a person in a seat of the project's crew (`agentId` is their being's id).
   */
  source: Schema.Literal("saved", "persona", "person"),
  skills: Schema.Array(Schema.String),
  tier: ModelTier
})
export type TeamMemberView = typeof TeamMemberView.Type

export const Team = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  leadAgentId: Schema.String,
  memberAgentIds: Schema.Array(Schema.String),
  /** Ours: who the members are, since ephemeral agents have no agent row to look up. */
  members: Schema.Array(TeamMemberView),
  createdAt: Schema.String
}).annotations({ identifier: "Team" })
export type Team = typeof Team.Type

export const TraceKind = Schema.Literal(
  "plan",
  "think",
  "tool.call",
  "tool.result",
  "message",
  "output",
  "error",
  "done",
  /** Ours: a replay kept this step's work from an earlier run (no model call, no skill call). */
  "kept"
)
export type TraceKind = typeof TraceKind.Type

export const TraceEvent = Schema.Struct({
  /** Increasing within the node: `?after=<id>` pages on it. */
  id: Schema.String,
  projectId: Schema.String,
  taskId: Schema.NullOr(Schema.String),
  kind: TraceKind,
  agentId: Schema.NullOr(Schema.String),
  text: Schema.String,
  /** What the kind carries (the plan's tasks, a tool's input or result, a report…), as JSON. */
  data: JsonValue,
  at: Schema.String
}).annotations({ identifier: "TraceEvent" })
export type TraceEvent = typeof TraceEvent.Type

export const ReviewVerdict = Schema.Literal("pass", "pass-with-notes", "needs-work")
export type ReviewVerdict = typeof ReviewVerdict.Type

export const ProjectReview = Schema.Struct({
  projectId: Schema.String,
  verdict: ReviewVerdict,
  notes: Schema.String,
  createdAt: Schema.String
}).annotations({ identifier: "ProjectReview" })
export type ProjectReview = typeof ProjectReview.Type

export const ProjectDetail = Schema.Struct({
  project: Project,
  tasks: Schema.Array(Task),
  team: Schema.NullOr(Team),
  review: Schema.NullOr(ProjectReview)
}).annotations({ identifier: "ProjectDetail" })
export type ProjectDetail = typeof ProjectDetail.Type

const Brief = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(8000))

/** `{ brief }` or `{ generatorId, inputs }`; anything else is refused rather than guessed at. */
export const CreateProjectBody = Schema.Union(
  Schema.Struct({ brief: Brief }),
  Schema.Struct({
    generatorId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
    inputs: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { default: () => ({}) })
  })
).annotations({ identifier: "CreateProjectBody", parseOptions: { onExcessProperty: "error" } })
export type CreateProjectBody = typeof CreateProjectBody.Type

/** `dueAt` null clears it; `taskId` names one of the project's steps, else the project itself. */
export const DueBody = Schema.Struct({
  dueAt: Schema.NullOr(
    Schema.String.pipe(Schema.filter((text) => !Number.isNaN(Date.parse(text)) || "an ISO 8601 date"))
  ),
  taskId: Schema.optional(Schema.String)
}).annotations({ identifier: "DueBody", parseOptions: { onExcessProperty: "error" } })
export type DueBody = typeof DueBody.Type

export const OmnibarBody = Schema.Struct({ text: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(8000)) })

/** A project in the portfolio: the record without its outputs, with how far its steps are. */
export const PortfolioItem = Schema.Struct({
  project: Project,
  tasksDone: Schema.Number,
  tasksTotal: Schema.Number
})

/**
 * waiting: needs the caller (a failed or cancelled run to resume); running: planning, running,
 * review (a run whose agent waits on an approval keeps running: the decision is on the owner's
 * desktop); stalled: running but past its due date; done: finished. Waiting ranks above done.
 */
export const Portfolio = Schema.Struct({
  waiting: Schema.Array(PortfolioItem),
  running: Schema.Array(PortfolioItem),
  stalled: Schema.Array(PortfolioItem),
  done: Schema.Array(PortfolioItem)
}).annotations({ identifier: "Portfolio" })
export type Portfolio = typeof Portfolio.Type

/** One open step (pending, ready, running or blocked) across the caller's projects. */
export const QueueItem = Schema.Struct({
  projectId: Schema.String,
  projectTitle: Schema.String,
  task: Task,
  /** 'person' for a step a crew's seat holds (`task.assigneeBeingId`), 'agent' for the rest. */
  assignee: Schema.Literal("agent", "person"),
  /** 'approval': a gate the person approves or rejects; 'work': a step done and handed in. */
  kind: TaskKind
}).annotations({ identifier: "QueueItem" })
export type QueueItem = typeof QueueItem.Type

/** What a person hands in for their step: what the steps after it read as its output. */
export const FinishStepBody = Schema.Struct({
  output: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(20000))
}).annotations({
  identifier: "FinishStepBody",
  parseOptions: { onExcessProperty: "error" }
})
export type FinishStepBody = typeof FinishStepBody.Type

/** Ours: at most this many steps in a plan, fixed and edited ones together. */
export const maxPlanTasks = 40

const Ref = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

/**
 * Who does an edited step: one of the caller's saved agents, a person (the owner, or a crew's seat), or the team by
 * role.
 */
export const PlanAssignee = Schema.Union(
  Schema.Struct({ agentId: Ref }).annotations({ parseOptions: { onExcessProperty: "error" } }),
  Schema.Struct({ personBeingId: Ref }).annotations({ parseOptions: { onExcessProperty: "error" } })
)
export type PlanAssignee = typeof PlanAssignee.Type

/** One step of the wanted plan's not-started part: no id, a new step. */
export const PlanEdit = Schema.Struct({
  id: Schema.optional(Ref),
  title: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(200)),
  description: Schema.optional(Schema.String.pipe(Schema.maxLength(8000))),
  role: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(100)),
  skills: Schema.optional(Schema.Array(Ref).pipe(Schema.maxItems(50))),
  dependsOn: Schema.optional(Schema.Array(Ref).pipe(Schema.maxItems(maxPlanTasks))),
  assignee: Schema.optional(Schema.NullOr(PlanAssignee)),
  kind: Schema.optional(TaskKind)
}).annotations({ identifier: "PlanEdit", parseOptions: { onExcessProperty: "error" } })
export type PlanEdit = typeof PlanEdit.Type

export const EditPlanBody = Schema.Struct({
  version: Schema.Int.pipe(Schema.greaterThanOrEqualTo(0)),
  tasks: Schema.Array(PlanEdit).pipe(Schema.maxItems(maxPlanTasks))
}).annotations({ identifier: "EditPlanBody", parseOptions: { onExcessProperty: "error" } })
export type EditPlanBody = typeof EditPlanBody.Type

/** The project after an edit, and what the repair pass changed in the edited plan. */
export const PlanEditResult = Schema.Struct({
  ...ProjectDetail.fields,
  repairs: Schema.Array(PlanRepair)
}).annotations({ identifier: "PlanEditResult" })
export type PlanEditResult = typeof PlanEditResult.Type

export const ApproveBody = Schema.Struct({
  note: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
}).annotations({
  identifier: "ApproveBody",
  parseOptions: { onExcessProperty: "error" }
})
export type ApproveBody = typeof ApproveBody.Type

export const RejectBody = Schema.Struct({
  note: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2000))
}).annotations({
  identifier: "RejectBody",
  parseOptions: { onExcessProperty: "error" }
})
export type RejectBody = typeof RejectBody.Type
