/**
 * The project actor's refusals as its routes answer them: each its own tag for callers, its status
 * and code (docs/api.md) fixed for the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** The caller has no project with that id (another being's is not told apart from none). */
export class ProjectNotFound extends refusal(404, "ProjectNotFound", "project_not_found") {}
/** A run asked of a generator the caller may not run or that is not there. */
export class RunnableGeneratorNotFound extends refusal(404, "RunnableGeneratorNotFound", "generator_not_found") {}
/** A generator run's inputs do not fit the generator's form. */
export class ProjectInputsInvalid extends refusal(400, "ProjectInputsInvalid", "invalid_inputs") {}
/** The omnibar's sentence does not ask for something to be made. */
export class NotAMakeRequest extends refusal(400, "NotAMakeRequest", "not_a_make_request") {}
/** A cancel of a project whose run is already over. */
export class ProjectNotRunning extends refusal(409, "ProjectNotRunning", "project_not_running") {}
/** A resume of a project whose run neither failed nor was cancelled. */
export class ProjectNotResumable extends refusal(409, "ProjectNotResumable", "project_not_resumable") {}
/** No step with that id in the project, or none the caller holds. */
export class StepNotFound extends refusal(404, "StepNotFound", "task_not_found") {}
/** The project's owner answering a step a person of the crew holds. */
export class NotYourStep extends refusal(403, "NotYourStep", "not_your_step") {}
/** An answer to a step the run is not waiting on (not yet, or no longer). */
export class StepNotWaiting extends refusal(409, "StepNotWaiting", "step_not_waiting") {}
/** An approval's answer to work, or work handed in on an approval. */
export class StepWrongKind extends refusal(409, "StepWrongKind", "not_an_approval") {}
/** A plan edit of a project that is done or in review. */
export class ProjectOver extends refusal(409, "ProjectOver", "project_over") {}
/** A plan edit before the planner made the plan. */
export class PlanNotReady extends refusal(409, "PlanNotReady", "plan_not_ready") {}
/** A plan edit made on a version of the plan that is no longer the stored one. */
export class PlanChanged extends refusal(409, "PlanChanged", "plan_changed") {}
/** A plan edit that changes or removes a step already started or done. */
export class StepStarted extends refusal(409, "StepStarted", "task_started") {}
/** A plan edit naming a step the project does not have. */
export class PlanStepUnknown extends refusal(400, "PlanStepUnknown", "unknown_task") {}
/** A plan edit listing one step twice. */
export class PlanStepListedTwice extends refusal(400, "PlanStepListedTwice", "duplicate_task") {}
/** A plan edit that leaves no step. */
export class PlanEmpty extends refusal(400, "PlanEmpty", "empty_plan") {}
/** A plan edit over the most steps a plan may have. */
export class PlanTooLong extends refusal(400, "PlanTooLong", "plan_too_long") {}
/** A step given to a person who is neither the owner nor seated in the project's crew. */
export class StepAssigneeNotInCrew extends refusal(400, "StepAssigneeNotInCrew", "not_in_crew") {}
/** An approval given to an agent. */
export class ApprovalNeedsPerson extends refusal(400, "ApprovalNeedsPerson", "approval_needs_person") {}
/** A step given to an agent that is not one of the owner's saved agents. */
export class StepAgentUnknown extends refusal(400, "StepAgentUnknown", "unknown_agent") {}
/** A replay or a fork of a project whose run is not over (docs/decisions.md "Start again from any step"). */
export class ProjectRunning extends refusal(409, "ProjectRunning", "project_running") {}
