/**
 * A run's plan: from a brief, the planner (strong tier) proposes tasks; from a generator, its
 * steps are rendered from their templates with the inputs and no model is called. Either plan
 * then goes through the same repair pass (studio/pipeline/plan.ts), whose every change is traced.
 */
import * as Effect from "effect/Effect"
import * as JSONSchema from "effect/JSONSchema"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { Skills } from "../../kernel/extensions/skills.ts"
import { Models } from "../../extensions/models/contract/models.ts"
import type { DeliverableContract } from "./contract/deliverable.ts"
import { keepKnownSkills, Plan, repairPlan, type PlanRepair, type PlanTask } from "./contract/plan.ts"
import { planContract } from "./pipeline/word-target.ts"
import type { Generator } from "../../extensions/generators/contract/generator.ts"
import type { GeneratorStep } from "../../extensions/generators/contract/step.ts"
import { renderStep } from "../../extensions/generators/contract/templating.ts"
import type { NewTask } from "./store.ts"
import { RunFailure, runFailureOf } from "./failure.ts"

export interface PlannedRun {
  readonly tasks: ReadonlyArray<NewTask>
  readonly repairs: ReadonlyArray<PlanRepair>
  readonly costUsd: number
}

/** A task of a plan as the runner keeps it; its contract is planned (word target rendered) now. */
const fromPlanTask = (task: PlanTask, inputs: unknown, template: GeneratorStep | null = null): NewTask => ({
  key: task.id,
  title: task.title,
  description: task.description,
  instruction: task.description === "" ? task.title : task.description,
  role: task.role,
  skills: task.skills,
  tier: task.tier,
  dependsOn: task.dependsOn,
  outputKind: "markdown",
  contract: task.deliverable === undefined ? null : planContract(task.deliverable, inputs),
  template
})

/**
 * Repairs keep plan order and may put one research task first, so task i of the input is task
 * i (or i + 1) of the output: that is how each repaired task finds what the plan alone knew.
 */
const repaired = (
  original: ReadonlyArray<NewTask>,
  plan: Plan,
  inputs: unknown,
  earlier: ReadonlyArray<PlanRepair> = []
) => {
  const { plan: fixed, repairs: later } = repairPlan(plan)
  const repairs = [...earlier, ...later]
  const offset = fixed.tasks.length - original.length
  const tasks = fixed.tasks.map((task, index): NewTask => {
    const known = original[index - offset]
    return known === undefined || index < offset
      ? fromPlanTask(task, inputs)
      : { ...known, key: task.id, tier: task.tier, dependsOn: task.dependsOn }
  })
  return { tasks, repairs }
}

export const planFromGenerator = (generator: Generator, inputs: Readonly<Record<string, unknown>>): PlannedRun => {
  const original = generator.steps.map((step): NewTask => {
    const rendered = renderStep(step, inputs, {})
    return {
      key: step.id,
      title: rendered.title,
      description: "",
      instruction: rendered.instruction,
      role: step.role,
      skills: step.skills,
      tier: step.tier,
      dependsOn: rendered.dependsOn,
      outputKind: step.outputKind,
      // The generator's contract is the pipeline's, field for field; its word target is rendered here.
      contract: step.deliverable === undefined ? null : planContract(step.deliverable as DeliverableContract, inputs),
      template: step
    }
  })
  const plan: Plan = {
    tasks: original.map((task) => ({
      id: task.key,
      title: task.title,
      description: task.instruction,
      role: task.role,
      skills: task.skills,
      tier: task.tier,
      dependsOn: task.dependsOn
    }))
  }
  return { ...repaired(original, plan, inputs), costUsd: 0 }
}

const plannerPrompt = [
  "You plan the work of a small studio team. Split the brief into 2 to 8 tasks, each done by one agent whose role you",
  "name (lead, researcher, writer, editor, engineer, designer, analyst, marketer). Give each task an id (short, lowercase),",
  "a title, a description that says exactly what to produce, the skills it needs (web.search, web.fetch, files.write, ...),",
  "and dependsOn: the ids of the tasks whose results it needs. Every task saves its result as a file with files.write;",
  "a task may carry a deliverable: { file, words: { target }, requireSections, minSourceLinks }. Start with research.",
  "Answer with JSON only."
].join(" ")

const planSchema = JSONSchema.make(Plan) as unknown as Record<string, unknown>
const decodePlan = Schema.decodeUnknownEither(Plan)

export const planFromBrief = (brief: string, context: { readonly ownerId: string; readonly projectId: string }) =>
  Effect.gen(function* () {
    const models = yield* Models
    const answer = yield* models
      .chatJson("strong", {
        purpose: "studio planner",
        beingId: context.ownerId,
        projectId: context.projectId,
        messages: [
          { role: "system", content: plannerPrompt },
          { role: "user", content: brief }
        ],
        responseFormat: { type: "json_schema", name: "plan", schema: planSchema, strict: false }
      })
      .pipe(
        Effect.catchTag("ModelReplyNotJson", (error) =>
          Effect.fail(
            new RunFailure({ message: `The planner answered with something other than a plan: ${error.message}` })
          )
        ),
        Effect.catchTags({
          ModelsUnavailable: (error) => Effect.fail(runFailureOf(error, "The planner could not be called")),
          SpendCeilingReached: (error) => Effect.fail(runFailureOf(error, "The planner could not be called")),
          ModelCallFailed: (error) => Effect.fail(runFailureOf(error, "The planner failed"))
        })
      )
    const decoded = decodePlan(answer.value)
    if (decoded._tag === "Left") {
      return yield* new RunFailure({
        message: `The planner's plan does not fit the plan's shape: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`
      })
    }
    const known = new Set((yield* (yield* Skills).list).map((skill) => skill.name))
    const { plan, repairs } = keepKnownSkills(decoded.right, known)
    const original = plan.tasks.map((task) => fromPlanTask(task, {}))
    return { ...repaired(original, plan, {}, repairs), costUsd: answer.call.costUsd } satisfies PlannedRun
  })
