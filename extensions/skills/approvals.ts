/**
 * Both ends of the approval gate on the owner's desktop. Asking: an unapproved call of a
 * world-acting skill raises a 'decision' signal with the options 'Do it' and 'No' and the exact
 * attempted call as its action. Answering: the `skill.invoke` action re-invokes that call with
 * approved = true inside the answer's single-use step, so an approval runs once and cannot be
 * replayed. Only signals the gate itself raised (its own source) carry a runnable call: a
 * plugin's or an agent's signal that imitates the action is refused and stays open.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ActionRefused, SignalActions } from "../../actors/being/contract/signal-actions.ts"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import {
  invokeResult,
  SkillApprovals,
  Skills,
  type ApprovalAsked,
  type ApprovalRequest
} from "../../kernel/extensions/skills.ts"
import { Signals } from "../desktop/contract/signals.ts"
import { ProjectWorkspaces } from "../../actors/project/contract/project-workspaces.ts"

const approvalActionKind = "skill.invoke"
/** Who raises the gate's signals; no other raiser can use it (plugins are `plugin:<id>`, the owner `owner`). */
const approvalSource = "skills:approval"
const approveOptionId = "do-it"

const ApprovalAction = Schema.Struct({
  kind: Schema.Literal(approvalActionKind),
  skill: Schema.String,
  input: Schema.Unknown,
  beingId: Schema.String,
  projectId: Schema.NullOr(Schema.String)
})
const decodeAction = Schema.decodeUnknownEither(ApprovalAction)
const decodeSignal = Schema.decodeUnknownEither(SignalInput)

const maxBodyChars = 4000

const bodyOf = (request: ApprovalRequest) => {
  const where = request.projectId === null ? "" : ` in project ${request.projectId}`
  const reason = request.reason === "" ? "" : `\n\nWhy it acts on the world: ${request.reason}`
  const text =
    `${request.skill} was called${where} and waits for your approval. "Do it" runs it once, exactly with this input:\n\n` +
    `${JSON.stringify(request.input, null, 2)}${reason}`
  return text.length <= maxBodyChars ? text : `${text.slice(0, maxBodyChars - 1)}…`
}

/** The decision signal for one refused call, or why none can carry it. */
const decisionOf = (request: ApprovalRequest) =>
  decodeSignal({
    kind: "decision",
    title: `Approve ${request.skill}?`.slice(0, 160),
    body: bodyOf(request),
    options: [
      { id: approveOptionId, label: "Do it" },
      { id: "no", label: "No" }
    ],
    priority: "high",
    action: {
      kind: approvalActionKind,
      skill: request.skill,
      input: request.input,
      beingId: request.beingId,
      projectId: request.projectId
    }
  })

export const SkillApprovalsLive = Layer.effect(
  SkillApprovals,
  Effect.map(Signals, (signals) => ({
    ask: (request: ApprovalRequest): Effect.Effect<ApprovalAsked> => {
      const decision = decisionOf(request)
      if (Either.isLeft(decision)) {
        const problem = ParseResult.TreeFormatter.formatErrorSync(decision.left).split("\n").at(-1)?.trim()
        return Effect.succeed({
          signalId: null,
          delivered: false,
          note: `the call cannot be put on a signal: ${problem}`
        })
      }
      return signals.raiseForOwner(decision.right, approvalSource, "system").pipe(
        Effect.map((raised): ApprovalAsked => ({ signalId: raised.signal.id, delivered: raised.delivered })),
        Effect.catchAll((error) => Effect.succeed({ signalId: null, delivered: false, note: error.message }))
      )
    }
  }))
)

/** Registers the `skill.invoke` action: what answering the gate's decision signal does. */
export const ApprovalActionLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const actions = yield* SignalActions
    const skills = yield* Skills
    const workspaces = yield* ProjectWorkspaces
    // A call made inside a project wrote into its workspace (a build, a file): its outputs show it.
    const recordProjectOutputs = (projectId: string | null) =>
      projectId === null ? Effect.void : workspaces.recordOutputs(projectId)
    yield* actions.register(approvalActionKind, ({ signal, optionId }) => {
      if (signal.source !== approvalSource) {
        return Effect.fail(new ActionRefused({ reason: "only the approval gate's own signals can run a skill" }))
      }
      if (optionId !== approveOptionId) return Effect.succeed({ approved: false })
      const action = decodeAction(signal.action)
      if (Either.isLeft(action))
        return Effect.fail(new ActionRefused({ reason: "the signal's skill call is malformed" }))
      const call = action.right
      // A run that fails (or a skill uninstalled meanwhile) refuses the answer: "Do it" did not happen,
      // so the signal stays open with the reason, as every failing signal action does.
      return skills
        .invoke({
          name: call.skill,
          input: call.input,
          beingId: call.beingId,
          projectId: call.projectId,
          approved: true
        })
        .pipe(
          Effect.mapError((error) => new ActionRefused({ reason: error.message })),
          Effect.flatMap((outcome) =>
            outcome.ok
              ? Effect.succeed({ approved: true, ...invokeResult(outcome) })
              : Effect.fail(new ActionRefused({ reason: outcome.error }))
          ),
          Effect.tap(() => recordProjectOutputs(call.projectId))
        )
    })
  })
)
