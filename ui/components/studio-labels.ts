/**
 * The studio's states in words, shared by /studio, /studio/<project> and /work: project and step
 * states, QA verdicts, output kinds and trace kinds, each with the tone its badge takes
 * (`data-tone` in the shared styles: active, good, bad, or plain).
 */
import { html } from "lit"
import type { OutputKind } from "../../extensions/generators/contract/step.ts"
import type { ProjectStatus, ReviewVerdict, TaskStatus, TraceKind } from "../../actors/project/contract/records.ts"

export type Tone = "plain" | "active" | "good" | "bad"

interface Words {
  readonly label: string
  readonly tone: Tone
}

export const projectStatusWords: Readonly<Record<ProjectStatus, Words>> = {
  draft: { label: "Draft", tone: "plain" },
  planning: { label: "Planning", tone: "active" },
  running: { label: "Running", tone: "active" },
  review: { label: "In review", tone: "active" },
  done: { label: "Done", tone: "good" },
  failed: { label: "Failed", tone: "bad" },
  cancelled: { label: "Cancelled", tone: "plain" }
}

export const taskStatusWords: Readonly<Record<TaskStatus, Words>> = {
  pending: { label: "Waiting", tone: "plain" },
  ready: { label: "Ready", tone: "plain" },
  running: { label: "Working", tone: "active" },
  waiting: { label: "Awaits your approval", tone: "active" },
  blocked: { label: "Blocked", tone: "bad" },
  done: { label: "Done", tone: "good" },
  failed: { label: "Failed", tone: "bad" },
  cancelled: { label: "Cancelled", tone: "plain" }
}

export const verdictWords: Readonly<Record<ReviewVerdict, Words>> = {
  pass: { label: "Pass", tone: "good" },
  "pass-with-notes": { label: "Pass with notes", tone: "good" },
  "needs-work": { label: "Needs work", tone: "bad" }
}

export const outputKindLabels: Readonly<Record<OutputKind, string>> = {
  text: "Text",
  markdown: "Markdown",
  docx: "Word document",
  pdf: "PDF",
  image: "Image",
  code: "Code",
  "react-app": "React app",
  "fullstack-app": "Full-stack app",
  html: "Web page",
  scene3d: "3D scene",
  data: "Data",
  zip: "Archive"
}

export const traceKindLabels: Readonly<Record<TraceKind, string>> = {
  plan: "Plan",
  think: "Thinking",
  "tool.call": "Tool call",
  "tool.result": "Tool result",
  message: "Message",
  output: "Output",
  error: "Error",
  done: "Done",
  kept: "Kept"
}

/** A badge: its words, and its tone for the eye (the words carry the meaning). */
export const badge = (words: Words) => html`<span class="badge" data-tone=${words.tone}>${words.label}</span>`

/** The project states in which a run is under way (cancel applies) and those it can be resumed from. */
export const runningStatuses: ReadonlySet<ProjectStatus> = new Set(["draft", "planning", "running", "review"])
export const resumableStatuses: ReadonlySet<ProjectStatus> = new Set(["failed", "cancelled"])

const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })

export const formatSize = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${sizeFormat.format(bytes / 1024)} KB`
      : `${sizeFormat.format(bytes / 1024 / 1024)} MB`

const usdFormat = new Intl.NumberFormat(undefined, { style: "currency", currency: "USD", maximumFractionDigits: 4 })

export const formatUsd = (usd: number): string => usdFormat.format(usd)
