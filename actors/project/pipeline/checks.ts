/**
 * The deliverable checks: every one mechanical, no model involved. They read only what the task
 * left behind (the files it saved, the earlier version it revised, the reports of its skills),
 * so the same artefact always gets the same report. Build and authoring verdicts come from their
 * skills' own reports, never from a model's claim or a second look at the disk.
 */
import * as Schema from "effect/Schema"
import * as Option from "effect/Option"
import type {
  AuthoredArtefact,
  AuthoredRecord,
  BuildArtefact,
  BuildVerdict,
  DeliverableFailure,
  DeliverableReport,
  PlannedContract,
  ResolvedWordBudget
} from "../contract/deliverable.ts"
import { authoringSkillOf } from "../contract/deliverable.ts"
import { countWords, proseLines } from "../contract/words.ts"
import {
  hasValue,
  headingKey,
  headings,
  openerKey,
  openingParagraph,
  parseFrontmatter,
  sourceLinks,
  splitFrontmatter
} from "./markdown.ts"

/** A file the task saved, in the order saved; a path saved twice counts with its last content. */
export interface SavedFile {
  readonly path: string
  readonly content: string
}

/** One skill invocation of the task, as the skill runtime answered it. */
export interface SkillResult {
  readonly skill: string
  readonly ok: boolean
  readonly output?: unknown
  readonly error?: string
}

export interface TaskArtefact {
  readonly saved: ReadonlyArray<SavedFile>
  /** The content of the `revises` file as it stood before the task ran; null when there was none. */
  readonly earlier?: string | null
  readonly skillResults?: ReadonlyArray<SkillResult>
}

/** What the build skill reports; the spec names these three fields. */
const BuildReport = Schema.Struct({
  built: Schema.Boolean,
  previewPath: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  buildLog: Schema.optionalWith(Schema.String, { default: () => "" })
})

/** What an authoring skill reports: authored true or false, with what it made or why not. */
const AuthoringReport = Schema.Struct({
  authored: Schema.Boolean,
  id: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  name: Schema.optionalWith(Schema.String, { default: () => "" }),
  note: Schema.optionalWith(Schema.String, { default: () => "" })
})

const decodeBuildReport = Schema.decodeUnknownOption(BuildReport)
const decodeAuthoringReport = Schema.decodeUnknownOption(AuthoringReport)

const normalisePath = (path: string) => path.replace(/\\/g, "/").replace(/^(?:\.\/|\/)+/, "")

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`

const quoteList = (items: ReadonlyArray<string>) => items.map((item) => JSON.stringify(item)).join(", ")

interface Text {
  readonly words: number
  readonly links: ReadonlySet<string>
}

interface ReadText extends Text {
  readonly yaml: string | null
  readonly lines: ReadonlyArray<string>
  /** Nothing but whitespace after the frontmatter: a file of metadata alone is no deliverable. */
  readonly empty: boolean
}

const readText = (content: string): ReadText => {
  const { body, yaml } = splitFrontmatter(content)
  const lines = proseLines(body)
  return { yaml, lines, empty: !/\S/.test(body), words: countWords(lines), links: sourceLinks(lines) }
}

/** Integer bounds, so that 1000 ± 20% means 800..1200 whatever the floating point says. */
const wordRange = (budget: ResolvedWordBudget) => ({
  low: Math.max(budget.floor, Math.ceil(budget.target * (1 - budget.tolerance) - 1e-9)),
  high: Math.floor(budget.target * (1 + budget.tolerance) + 1e-9)
})

const wordsFailure = (path: string, words: number, budget: ResolvedWordBudget): DeliverableFailure | null => {
  const { high, low } = wordRange(budget)
  if (words >= low && words <= high) return null
  const floor = budget.floor === low ? `, and at least ${budget.floor}` : ""
  return {
    code: "words",
    message:
      `${path} has ${plural(words, "word")}; it needs between ${low} and ${high} ` +
      `(a target of ${budget.target} ± ${percent(budget.tolerance)}${floor}).`
  }
}

const frontmatterFailure = (
  path: string,
  yaml: string | null,
  required: ReadonlyArray<string>
): DeliverableFailure | null => {
  if (required.length === 0) return null
  const needs = `it needs ${required.join(", ")}`
  if (yaml === null) {
    return {
      code: "frontmatter",
      message: `${path} has no YAML frontmatter (a block between --- lines at the very top); ${needs}.`
    }
  }
  const parsed = parseFrontmatter(yaml)
  if (parsed._tag === "Invalid") {
    return { code: "frontmatter", message: `${path}'s frontmatter is not valid YAML (${parsed.reason}); ${needs}.` }
  }
  const missing = required.filter((key) => !hasValue(parsed.fields[key]))
  return missing.length === 0
    ? null
    : {
        code: "frontmatter",
        message: `${path}'s frontmatter has no value for ${missing.join(", ")}.`
      }
}

const sourcesFailure = (path: string, links: number, min: number): DeliverableFailure | null =>
  links >= min
    ? null
    : {
        code: "sources",
        message:
          `${path} links ${plural(links, "distinct source")}; it needs at least ${min} ` +
          `(full http(s) addresses in the text, outside code blocks).`
      }

const sectionsFailure = (
  path: string,
  lines: ReadonlyArray<string>,
  required: ReadonlyArray<string>
): DeliverableFailure | null => {
  const present = new Set(headings(lines).map(headingKey))
  const missing = required.filter((section) => !present.has(headingKey(section)))
  return missing.length === 0
    ? null
    : {
        code: "sections",
        message:
          `${path} lacks the ${missing.length === 1 ? "section" : "sections"} ${quoteList(missing)}: ` +
          `each must be a markdown heading with that title (e.g. "## ${missing[0]}").`
      }
}

/** An opener matches at a word boundary: "As" forbids "As a result", not "Asia". */
const opensWith = (opening: string, opener: string) => {
  const key = openerKey(opener).trim()
  return key !== "" && opening.startsWith(key) && !/^[\p{L}\p{N}]/u.test(opening.slice(key.length))
}

const voiceFailure = (
  path: string,
  lines: ReadonlyArray<string>,
  forbidden: ReadonlyArray<string>
): DeliverableFailure | null => {
  const paragraph = openingParagraph(lines)
  const opening = openerKey(paragraph)
  const opener = forbidden.find((candidate) => opensWith(opening, candidate))
  if (opener === undefined) return null
  const excerpt = paragraph.length > 80 ? `${paragraph.slice(0, 80)}…` : paragraph
  return {
    code: "voice",
    message:
      `${path} opens with ${JSON.stringify(opener)}, which this deliverable forbids; ` +
      `its first paragraph begins ${JSON.stringify(excerpt)}. Open it differently.`
  }
}

/**
 * A revision keeps enough of what it revised: its word count against the earlier version's (a
 * count, not the vocabulary, so rewording is free but truncating or summarising is caught) and the
 * earlier version's distinct links that are still there.
 */
const regressionFailure = (
  revises: string,
  earlier: Text,
  revised: Text,
  contract: PlannedContract
): DeliverableFailure | null => {
  const keptWords = earlier.words === 0 ? 1 : Math.min(1, revised.words / earlier.words)
  const lost = [...earlier.links].filter((link) => !revised.links.has(link))
  const keptLinks = earlier.links.size === 0 ? 1 : (earlier.links.size - lost.length) / earlier.links.size
  if (keptWords >= contract.minRetainedWords && keptLinks >= contract.minRetainedLinks) return null
  const dropped =
    lost.length === 0 ? "" : ` It dropped ${lost.slice(0, 10).join(", ")}${lost.length > 10 ? " and more" : ""}.`
  return {
    code: "regression",
    message:
      `The revision of ${revises} has ${revised.words} of its ${earlier.words} words (${percent(keptWords)}) and ` +
      `keeps ${earlier.links.size - lost.length} of its ${plural(earlier.links.size, "source link")} (${percent(keptLinks)}); ` +
      `a revision must keep at least ${percent(contract.minRetainedWords)} of the words and ` +
      `${percent(contract.minRetainedLinks)} of the links.${dropped} The earlier version was restored.`
  }
}

const tail = (log: string, chars: number) => (chars === 0 ? "" : log.slice(-chars))

interface BuildCheck {
  readonly verdict: BuildVerdict
  readonly failure: DeliverableFailure | null
}

/** The build's verdict is the last report of the build skill: a later build supersedes an earlier one. */
const checkBuild = (build: BuildArtefact, results: ReadonlyArray<SkillResult>): BuildCheck => {
  const notBuilt = (log: string, message: string): BuildCheck => ({
    verdict: { built: false, entry: null, log: tail(log, build.logChars) },
    failure: { code: "empty", message }
  })
  const last = results.findLast((result) => result.skill === build.skill)
  if (last === undefined) return notBuilt("", `${build.skill} never ran, so nothing was built.`)
  if (!last.ok) return notBuilt("", `${build.skill} failed: ${last.error ?? "no reason given"}.`)
  const report = decodeBuildReport(last.output)
  if (Option.isNone(report)) return notBuilt("", `${build.skill} reported no built flag, so nothing counts as built.`)
  const { buildLog, built, previewPath } = report.value
  if (!built) {
    const log = tail(buildLog, build.logChars)
    return notBuilt(
      buildLog,
      `The build did not succeed (${build.skill} reported built: false).` +
        (log === "" ? "" : ` The end of its log:\n${log}`)
    )
  }
  return {
    verdict: { built: true, entry: previewPath ?? build.entry, log: tail(buildLog, build.logChars) },
    failure: null
  }
}

/** Every invocation of the authoring skill is a record; a failed or unreadable one counts as not authored. */
const checkAuthored = (authored: AuthoredArtefact, results: ReadonlyArray<SkillResult>) => {
  const skill = authoringSkillOf(authored)
  const records = results
    .filter((result) => result.skill === skill)
    .map((result): AuthoredRecord => {
      if (!result.ok)
        return { kind: authored.kind, id: null, name: "", ok: false, note: result.error ?? "the skill failed" }
      const report = decodeAuthoringReport(result.output)
      return Option.isNone(report)
        ? { kind: authored.kind, id: null, name: "", ok: false, note: "the skill reported no authored flag" }
        : {
            kind: authored.kind,
            id: report.value.id,
            name: report.value.name,
            ok: report.value.authored,
            note: report.value.note
          }
    })
  const count = records.filter((record) => record.ok).length
  if (count >= authored.min) return { records, failure: null }
  const notes = records.filter((record) => !record.ok && record.note !== "").map((record) => record.note)
  const failure: DeliverableFailure = {
    code: "authored",
    message:
      `${plural(count, authored.kind)} authored with ${skill}; at least ${authored.min} needed.` +
      (records.length === 0 ? ` ${skill} was never called.` : "") +
      (notes.length === 0 ? "" : ` Refused: ${notes.join("; ")}.`)
  }
  return { records, failure }
}

const noFile = (failures: ReadonlyArray<DeliverableFailure>) => ({
  file: null,
  words: 0,
  sourceLinks: 0,
  failures,
  revertedTo: null
})

/**
 * The checked file is `file`, else the revised file, else the first file the task saved. A
 * deliverable that is a build or an authored artefact needs no file unless it names one.
 */
const checkFile = (contract: PlannedContract, artefact: TaskArtefact) => {
  const files = new Map(artefact.saved.map((file) => [normalisePath(file.path), file.content]))
  const named = contract.file ?? contract.revises
  if (named === undefined && (contract.build !== undefined || contract.authored !== undefined)) return noFile([])
  const path = named ?? files.keys().next().value
  if (path === undefined) {
    return noFile([{ code: "file", message: "The task saved no file; save the deliverable with files.write." }])
  }
  const content = files.get(normalisePath(path))
  if (content === undefined) {
    const saved = files.size === 0 ? "nothing was saved" : `saved: ${[...files.keys()].join(", ")}`
    return noFile([{ code: "file", message: `No file was saved at ${path} (${saved}).` }])
  }
  const text = readText(content)
  // An empty file fails as such; its other checks would only say the same thing again.
  const failures: ReadonlyArray<DeliverableFailure> = text.empty
    ? [{ code: "empty", message: `${path} is empty.` }]
    : [
        contract.words === undefined ? null : wordsFailure(path, text.words, contract.words),
        frontmatterFailure(path, text.yaml, contract.frontmatter),
        sourcesFailure(path, text.links.size, contract.minSourceLinks),
        sectionsFailure(path, text.lines, contract.requireSections),
        voiceFailure(path, text.lines, contract.forbidOpeners)
      ].filter((failure) => failure !== null)
  const regression =
    contract.revises === undefined || artefact.earlier === undefined || artefact.earlier === null
      ? null
      : regressionFailure(contract.revises, readText(artefact.earlier), text, contract)
  return {
    file: path,
    words: text.words,
    sourceLinks: text.links.size,
    failures: regression === null ? failures : [...failures, regression],
    revertedTo: regression === null ? null : (contract.revises ?? null)
  }
}

/**
 * The report of one attempt. `repairs` is 0: the caller, which runs the repairs, records how
 * many preceded the attempt. When `revertedTo` is set the caller restores that file's earlier
 * content before anything else reads it.
 */
export const checkDeliverable = (contract: PlannedContract, artefact: TaskArtefact): DeliverableReport => {
  const results = artefact.skillResults ?? []
  const file = checkFile(contract, artefact)
  const build = contract.build === undefined ? null : checkBuild(contract.build, results)
  const authored = contract.authored === undefined ? null : checkAuthored(contract.authored, results)
  const failures = [...file.failures, build?.failure ?? null, authored?.failure ?? null].filter(
    (failure) => failure !== null
  )
  return {
    ok: failures.length === 0,
    file: file.file,
    words: file.words,
    sourceLinks: file.sourceLinks,
    failures,
    repairs: 0,
    revertedTo: file.revertedTo,
    build: build?.verdict ?? null,
    authored: authored?.records ?? []
  }
}
