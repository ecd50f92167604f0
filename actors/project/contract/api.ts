/**
 * The studio's project routes (docs/api.md): start a run, list and read one's own projects,
 * the trace, cancel, resume, due dates, the portfolio and queue, and the omnibar. Every route is
 * scoped to the caller's own projects: another being's project is a 404, as a missing one is.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { PageParams, WholeUnlessPaged } from "../../../kernel/contract/page.ts"
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
import { ProjectRun, ReplayBody } from "./runs.ts"

const Id = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })
const TaskId = Schema.Struct({ taskId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })

/** `after`: the id of the last event the caller has; `limit` at most 1000, default 500. */
const TraceQuery = Schema.Struct({
  after: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.greaterThanOrEqualTo(0))),
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 1000)))
})

export class StudioProjectsApi extends HttpApiGroup.make("studioProjects")
  .annotate(
    OpenApi.Description,
    "Projects: runs from a brief or a generator, their tasks, trace, plan edits, due dates, and the queue of " +
      "steps waiting on a person. The caller's own projects, and the steps the caller holds in others' runs."
  )
  .add(
    HttpApiEndpoint.post("createProject", "/studio/projects")
      .annotate(OpenApi.Summary, "Start a project")
      .annotate(
        OpenApi.Description,
        "Starts a project from a brief, or from a generator and its inputs, owned by the caller; answers it at " +
          "once in `planning` while the project actor runs it. Any session; rate class `llm`. Refusals (nothing is " +
          "created): 400 `invalid_request`, 404 `generator_not_found`, 400 `invalid_inputs` (`details.issues`), " +
          "400 `generator_*` (the generator fails validation), 409 `spend_ceiling_reached`, 503 " +
          "`models_unavailable`."
      )
      // Starting, resuming and the omnibar each run a project, which spends model budget.
      .annotate(RateClass, "llm")
      .setPayload(CreateProjectBody)
      .addSuccess(Project)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("listProjects", "/studio/projects")
      .annotate(OpenApi.Summary, "List projects")
      .annotate(
        OpenApi.Description,
        "The caller's projects, newest first, paged by `limit` (1..200, default 50) and `offset`. Any session."
      )
      .setUrlParams(PageParams)
      .addSuccess(Schema.Array(Project))
  )
  .add(
    HttpApiEndpoint.get("getProject", "/studio/projects/:id")
      .annotate(OpenApi.Summary, "Get a project")
      .annotate(
        OpenApi.Description,
        "The project with its tasks in plan order, its team and its QA review. The project's owner. Refusals: " +
          "404 `project_not_found`."
      )
      .setPath(Id)
      .addSuccess(ProjectDetail)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("projectTrace", "/studio/projects/:id/trace")
      .annotate(OpenApi.Summary, "Read a project's trace")
      .annotate(
        OpenApi.Description,
        "The project's trace events after `after`, oldest first, at most `limit` (1..1000, default 500). The " +
          "project's owner. Refusals: 404 `project_not_found`."
      )
      .setPath(Id)
      .setUrlParams(TraceQuery)
      .addSuccess(Schema.Array(TraceEvent))
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("cancelProject", "/studio/projects/:id/cancel")
      .annotate(OpenApi.Summary, "Cancel a project")
      .annotate(
        OpenApi.Description,
        "Stops the run; the project and its open steps become `cancelled`. The project's owner. Refusals: 404 " +
          "`project_not_found`, 409 `project_not_running`."
      )
      .setPath(Id)
      .addSuccess(Project)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("resumeProject", "/studio/projects/:id/resume")
      .annotate(OpenApi.Summary, "Resume a project")
      .annotate(
        OpenApi.Description,
        "Continues a `failed` or `cancelled` run from its checkpoints; finished steps are not paid for again. " +
          "The project's owner. Refusals: 404 `project_not_found`, 409 `project_not_resumable`."
      )
      .annotate(RateClass, "llm")
      .setPath(Id)
      .addSuccess(Project)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.put("setProjectDue", "/studio/projects/:id/due")
      .annotate(OpenApi.Summary, "Set a due date")
      .annotate(
        OpenApi.Description,
        "Sets (null clears) the target date of the project or of one of its steps. The project's owner. " +
          "Refusals: 404 `project_not_found`, 404 `task_not_found`, 400 `invalid_request` (a date that does not " +
          "parse)."
      )
      .setPath(Id)
      .setPayload(DueBody)
      .addSuccess(Project)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.get("portfolio", "/studio/portfolio")
      .annotate(OpenApi.Summary, "The caller's portfolio")
      .annotate(
        OpenApi.Description,
        "The caller's projects sorted into waiting, running, stalled (past due) and done, each with its " +
          "progress: every one, or, with `limit` (1..200) and `offset`, every project running or stalled and " +
          "that page of the waiting ones and of the done ones (the groups that grow with use). Any session."
      )
      .setUrlParams(WholeUnlessPaged)
      .addSuccess(Portfolio)
  )
  .add(
    HttpApiEndpoint.get("queue", "/studio/queue")
      .annotate(OpenApi.Summary, "The caller's queue of steps")
      .annotate(
        OpenApi.Description,
        "Every step waiting in the caller's runs, and the steps the caller holds as a person of a crew in " +
          "anyone's runs; `kind` says whether a step is an approval gate. Every one, or the page `limit` " +
          "(1..200) and `offset` ask for. Any session."
      )
      .setUrlParams(WholeUnlessPaged)
      .addSuccess(Schema.Array(QueueItem))
  )
  .add(
    // A person hands in the step they hold (a crew's seat); the run waiting on it goes on.
    HttpApiEndpoint.post("finishStep", "/studio/queue/:taskId/finish")
      .annotate(OpenApi.Summary, "Hand in a person's step")
      .annotate(
        OpenApi.Description,
        "The person who holds a step hands in its output while the run waits on it; the run goes on. Refusals: " +
          "404 `task_not_found`, 403 `not_your_step`, 409 `step_not_waiting`, 409 `not_an_approval` (an approval " +
          "gate: approve or reject it)."
      )
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
      .annotate(OpenApi.Summary, "Edit a project's plan")
      .annotate(
        OpenApi.Description,
        "Replaces the not-started part of the plan (new, changed and removed steps); steps running or done stay. " +
          "The plan goes through the planner's repair pass; the answer says what it repaired. The project's owner; " +
          "rate class `owner`. Refusals (nothing changed): 404 `project_not_found`; 409 `plan_changed` (a stale " +
          "`version`), `project_over`, `plan_not_ready`, `task_started`; 400 `invalid_request`, `unknown_task`, " +
          "`duplicate_task`, `unknown_agent`, `not_in_crew`, `approval_needs_person`, `empty_plan`, " +
          "`plan_too_long`."
      )
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
      .annotate(OpenApi.Summary, "Approve an approval gate")
      .annotate(
        OpenApi.Description,
        "The person who holds an approval gate approves it (an optional note becomes its output); the steps " +
          "after it run. Refusals: 404 `task_not_found`, 403 `not_your_step`, 409 `step_not_waiting`, 409 " +
          "`not_an_approval` (a work step: finish it)."
      )
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
      .annotate(OpenApi.Summary, "Reject an approval gate")
      .annotate(
        OpenApi.Description,
        "The person who holds an approval gate rejects it with a note; the run stops as failed with that reason. " +
          "Refusals as approve's."
      )
      .setPath(TaskId)
      .setPayload(RejectBody)
      .addSuccess(Task)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("omnibar", "/studio/omnibar")
      .annotate(OpenApi.Summary, "Start a project from a sentence")
      .annotate(
        OpenApi.Description,
        "A sentence that asks for something to be made (make, build, write or draft, after an optional please) " +
          "starts a project with it as the brief, as `POST /api/studio/projects` does. Any session; rate class " +
          "`llm`. Refusals: 400 `not_a_make_request` (`details.hint`), and create's."
      )
      .annotate(RateClass, "llm")
      .setPayload(OmnibarBody)
      .addSuccess(Project)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.post("replayProject", "/studio/projects/:id/replay")
      .annotate(OpenApi.Summary, "Run a project again from a step")
      .annotate(
        OpenApi.Description,
        "The project's next run: `fromTaskId` (with `instruction`, at most 2,000 characters, added to its " +
          "description) and every step that depends on it run again, every other finished step is kept (no model " +
          "or skill call, traced `kept`), then the outputs and a new review. Only once the run is over (done, " +
          "failed or cancelled). The project's owner; rate class `llm`. Refusals (nothing changed): 404 " +
          "`project_not_found`, 404 `task_not_found` (no such step in this project), 409 `project_running`, 400 " +
          "`invalid_request`."
      )
      .annotate(RateClass, "llm")
      .setPath(Id)
      .setPayload(ReplayBody)
      .addSuccess(Project)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("forkProject", "/studio/projects/:id/fork")
      .annotate(OpenApi.Summary, "Fork a project from a step")
      .annotate(
        OpenApi.Description,
        "A new project of the caller's holding a copy of the kept part (its plan, team, the finished steps not " +
          "downstream of `fromTaskId` with their outputs, and the workspace's files), which then runs like a " +
          "replay. The original stays as it was. Body and refusals as replay's; answers 201 with the new project."
      )
      .annotate(RateClass, "llm")
      .setPath(Id)
      .setPayload(ReplayBody)
      .addSuccess(Project, { status: 201 })
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.get("projectRuns", "/studio/projects/:id/runs")
      .annotate(OpenApi.Summary, "A project's runs")
      .annotate(
        OpenApi.Description,
        "The project's runs, first first: how each began (start, resume, replay, fork), its status, and what its " +
          "own model calls cost. The project's owner. Refusals: 404 `project_not_found`."
      )
      .setPath(Id)
      .addSuccess(Schema.Array(ProjectRun))
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
