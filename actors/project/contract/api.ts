/**
 * The studio's project routes (docs/api.md): start a run, list and read one's own projects,
 * the trace, cancel, resume, due dates, the portfolio and queue, and the omnibar. Every route is
 * scoped to the caller's own projects: another being's project is a 404, as a missing one is.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import {
  ApproveBody,
  CreateProjectBody,
  EditPlanBody,
  PlanEditResult,
  RejectBody,
  DueBody,
  FinishStepBody,
  OmnibarBody,
  Portfolio,
  Project,
  ProjectDetail,
  QueueItem,
  Task,
  TraceEvent
} from "./records.ts"
import { Authentication } from "../../../extensions/accounts/contract/session.ts"

const Id = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })
const TaskId = Schema.Struct({ taskId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })

/** `after`: the id of the last event the caller has; `limit` at most 1000, default 500. */
const TraceQuery = Schema.Struct({
  after: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.greaterThanOrEqualTo(0))),
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 1000)))
})

export class StudioProjectsApi extends HttpApiGroup.make("studioProjects")
  .add(
    HttpApiEndpoint.post("createProject", "/studio/projects")
      // Starting, resuming and the omnibar each run a project, which spends model budget.
      .annotate(RateClass, "llm")
      .setPayload(CreateProjectBody)
      .addSuccess(Project)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .add(HttpApiEndpoint.get("listProjects", "/studio/projects").addSuccess(Schema.Array(Project)))
  .add(HttpApiEndpoint.get("getProject", "/studio/projects/:id").setPath(Id).addSuccess(ProjectDetail).addError(NotFound.schema))
  .add(
    HttpApiEndpoint.get("projectTrace", "/studio/projects/:id/trace")
      .setPath(Id)
      .setUrlParams(TraceQuery)
      .addSuccess(Schema.Array(TraceEvent))
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("cancelProject", "/studio/projects/:id/cancel")
      .setPath(Id)
      .addSuccess(Project)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("resumeProject", "/studio/projects/:id/resume")
      .annotate(RateClass, "llm")
      .setPath(Id)
      .addSuccess(Project)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.put("setProjectDue", "/studio/projects/:id/due")
      .setPath(Id)
      .setPayload(DueBody)
      .addSuccess(Project)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
  )
  .add(HttpApiEndpoint.get("portfolio", "/studio/portfolio").addSuccess(Portfolio))
  .add(HttpApiEndpoint.get("queue", "/studio/queue").addSuccess(Schema.Array(QueueItem)))
  .add(
    // A person hands in the step they hold (a crew's seat); the run waiting on it goes on.
    HttpApiEndpoint.post("finishStep", "/studio/queue/:taskId/finish")
      .setPath(TaskId)
      .setPayload(FinishStepBody)
      .addSuccess(Task)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(
    // The owner edits the plan's not-started part, on the version they read (docs/api.md).
    HttpApiEndpoint.put("editPlan", "/studio/projects/:id/plan")
      .annotate(RateClass, "owner")
      .setPath(Id)
      .setPayload(EditPlanBody)
      .addSuccess(PlanEditResult)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    // A gate's person approves it; the run goes on.
    HttpApiEndpoint.post("approveStep", "/studio/queue/:taskId/approve")
      .setPath(TaskId)
      .setPayload(ApproveBody)
      .addSuccess(Task)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(
    // A gate's person rejects it; the run stops as failed with their reason.
    HttpApiEndpoint.post("rejectStep", "/studio/queue/:taskId/reject")
      .setPath(TaskId)
      .setPayload(RejectBody)
      .addSuccess(Task)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("omnibar", "/studio/omnibar")
      .annotate(RateClass, "llm")
      .setPayload(OmnibarBody)
      .addSuccess(Project)
      .addError(InvalidRequest.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}
