/**
 * What an agent is told for one task: who it is and how to work (system), then the task itself,
 * what its deliverable must satisfy, and the work it builds on (user). The checks are mechanical
 * and only read what is saved, so the instruction says so plainly: save the whole file with
 * files.write, or the task is not done.
 */
import { impliedDependencies, renderStep } from "../../extensions/generators/contract/templating.ts"
import type { PlannedContract } from "./contract/deliverable.ts"
import type { TaskRecord } from "./repositories/tasks-repository.ts"
import type { RunMember } from "./team.ts"

/** The most of one dependency's output quoted into a task's instruction. */
const maxQuotedChars = 6000

export const systemPromptOf = (member: RunMember, projectTitle: string) =>
  [
    member.systemPrompt,
    "",
    `You are working on the project "${projectTitle}" as its ${member.role}. Work only through your tools.`,
    "Save each deliverable with files.write: the whole file, in markdown unless told otherwise. A task without a saved " +
      "file is not done. When it is saved, answer with one short paragraph saying what you made (no tool call)."
  ].join("\n")

const contractLines = (contract: PlannedContract | null): Array<string> => {
  if (contract === null) return []
  const lines: Array<string> = []
  const file = contract.file ?? contract.revises
  if (file !== undefined) lines.push(`Save it as ${file}.`)
  if (contract.words !== undefined) {
    const { floor, target, tolerance } = contract.words
    lines.push(
      `Length: about ${target} words (between ${Math.max(floor, Math.ceil(target * (1 - tolerance)))} and ${Math.floor(target * (1 + tolerance))}).`
    )
  }
  if (contract.frontmatter.length > 0)
    lines.push(`Start with YAML frontmatter holding: ${contract.frontmatter.join(", ")}.`)
  if (contract.requireSections.length > 0)
    lines.push(`Include these sections as markdown headings: ${contract.requireSections.join(", ")}.`)
  if (contract.minSourceLinks > 0)
    lines.push(`Link at least ${contract.minSourceLinks} distinct sources by their full http(s) address.`)
  if (contract.forbidOpeners.length > 0) lines.push(`Do not open with: ${contract.forbidOpeners.join(", ")}.`)
  if (contract.revises !== undefined)
    lines.push(`This revises ${contract.revises}: keep its substance and every source link.`)
  return lines
}

const quoted = (text: string) =>
  text.length <= maxQuotedChars ? text : `${text.slice(0, maxQuotedChars)}\n[…cut at ${maxQuotedChars} characters]`

/** The task's instruction with its dependencies' outputs: by template where the step reads them, else quoted below. */
export const taskPromptOf = (
  task: TaskRecord,
  contract: PlannedContract | null,
  dependencies: ReadonlyArray<TaskRecord>,
  inputs: Readonly<Record<string, unknown>>
) => {
  const template = task.template
  const outputs = Object.fromEntries(dependencies.map((dependency) => [dependency.key, dependency.outputText ?? ""]))
  const instruction = template === null ? task.instruction : renderStep(template, inputs, outputs).instruction
  const readByTemplate = new Set(template === null ? [] : impliedDependencies(template))
  const quotedDependencies = dependencies.filter((dependency) => !readByTemplate.has(dependency.key))
  const requirements = contractLines(contract)
  return [
    `Task: ${task.title}`,
    "",
    instruction,
    ...(task.addedInstruction === null ? [] : ["", `The owner ran this step again and adds: ${task.addedInstruction}`]),
    ...(requirements.length === 0
      ? []
      : ["", "The deliverable must satisfy:", ...requirements.map((line) => `- ${line}`)]),
    ...quotedDependencies.flatMap((dependency) => [
      "",
      `## Work this builds on: ${dependency.title}`,
      quoted(dependency.outputText ?? "(no text)")
    ])
  ].join("\n")
}
