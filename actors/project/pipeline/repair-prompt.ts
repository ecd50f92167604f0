/**
 * The instruction handed back to the agent when its deliverable fails its checks. It quotes each
 * failure verbatim (the messages are written to say what is wrong and by how much) and says which
 * action makes the fix count, since the checks only read what is saved and what skills reported.
 */
import type { DeliverableFailureCode, DeliverableReport } from "../contract/deliverable.ts"
import { authoringSkillOf } from "../contract/deliverable.ts"
import type { PlannedContract } from "../contract/deliverable.ts"

/** Codes about the saved file's text; 'empty' also means a failed build, told apart below. */
const textCodes: ReadonlySet<DeliverableFailureCode> = new Set([
  "file",
  "words",
  "frontmatter",
  "sources",
  "sections",
  "voice",
  "regression"
])

/** Whether another attempt is allowed: `report.repairs` counts the repairs already made. */
export const canRepair = (report: DeliverableReport, contract: PlannedContract): boolean =>
  !report.ok && report.repairs < contract.maxRepairs

const nextSteps = (report: DeliverableReport, contract: PlannedContract): ReadonlyArray<string> => {
  const buildFailed = contract.build !== undefined && report.build?.built === false
  const textFailed = report.failures.some(
    (failure) => textCodes.has(failure.code) || (failure.code === "empty" && report.file !== null)
  )
  const target = report.file ?? contract.file ?? contract.revises
  return [
    textFailed
      ? `Save the whole corrected file again with files.write${target === undefined ? "" : ` at ${target}`} (not a patch, not a summary of changes).`
      : null,
    buildFailed && contract.build !== undefined
      ? `Fix what the build log shows, then run ${contract.build.skill} again.`
      : null,
    report.failures.some((failure) => failure.code === "authored") && contract.authored !== undefined
      ? `Call ${authoringSkillOf(contract.authored)} again for what is still missing.`
      : null
  ].filter((step) => step !== null)
}

export const repairPrompt = (report: DeliverableReport, contract: PlannedContract): string => {
  const failures = report.failures.map((failure, index) => `${index + 1}. [${failure.code}] ${failure.message}`)
  return [
    `Your deliverable did not pass its checks. This is repair ${report.repairs + 1} of ${contract.maxRepairs}: ` +
      "fix exactly the problems below and keep everything that already passes.",
    "",
    ...failures,
    "",
    ...nextSteps(report, contract)
  ].join("\n")
}
