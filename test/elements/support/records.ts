/** Records as the node answers them, for the element tests' fake node. */
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { Project, Task } from "../../../actors/project/contract/records.ts"
import type { Signal } from "../../../actors/being/contract/signal.ts"
import type { Thread } from "../../../extensions/threads/contract/records.ts"

export const owner: Being = {
  id: "b-owner",
  handle: "ada",
  displayName: "Ada",
  email: "ada@example.test",
  isOwner: true,
  emailVerified: true,
  suspended: false,
  createdAt: "2026-01-02T10:00:00.000Z"
}

export const ok = { json: { ok: true } }

export const project = (over: Partial<Project> = {}): Project => ({
  id: "p1",
  ownerId: "b-owner",
  generatorId: null,
  title: "A tea guide",
  brief: "Write a short guide to green tea.",
  inputs: {},
  status: "running",
  outputs: [],
  teamId: null,
  costUsd: 0,
  error: null,
  dueAt: null,
  planVersion: 1,
  createdAt: "2026-01-05T09:00:00.000Z",
  updatedAt: "2026-01-05T09:05:00.000Z",
  ...over
})

export const task = (over: Partial<Task> = {}): Task => ({
  id: "t1",
  projectId: "p1",
  parentId: null,
  key: "research",
  title: "Research green teas",
  description: "Find the main kinds.",
  role: "researcher",
  assigneeAgentId: "a1",
  assigneeBeingId: null,
  pinned: false,
  kind: "work",
  skills: [],
  tier: "standard",
  decisionSignalId: null,
  dependsOn: [],
  status: "running",
  input: null,
  output: null,
  error: null,
  costUsd: 0,
  startedAt: "2026-01-05T09:01:00.000Z",
  finishedAt: null,
  dueAt: null,
  keptInRun: null,
  ...over
})

export const signal = (over: Partial<Signal> = {}): Signal => ({
  id: "s1",
  beingId: "b-owner",
  kind: "reminder",
  title: "Water the plants",
  body: "The fern is dry.",
  options: [],
  priority: "normal",
  dueAt: null,
  action: null,
  source: "owner",
  status: "open",
  answer: null,
  actionResult: null,
  createdAt: "2026-01-05T09:00:00.000Z",
  updatedAt: "2026-01-05T09:00:00.000Z",
  answeredAt: null,
  ...over
})

export const thread = (over: Partial<Thread> = {}): Thread => ({
  id: "th1",
  kind: "muse",
  title: "Iris",
  participants: ["b-owner"],
  replyPolicy: "muse",
  preview: null,
  lastMessageAt: null,
  createdAt: "2026-01-05T09:00:00.000Z",
  ...over
})

/** Where `navigate` sent the page during the current test; the test page's address is put back after each. */
export const navigations = (): Array<string> => {
  const seen: Array<string> = []
  const start = location.pathname + location.search
  window.addEventListener("location-changed", () => seen.push(location.pathname + location.search))
  afterEach(() => {
    seen.length = 0
    history.replaceState(null, "", start)
  })
  return seen
}

export const listedBeing = (over: Record<string, unknown> = {}) => ({
  id: "b-bo",
  kind: "human",
  handle: "bo",
  displayName: "Bo",
  isOwner: false,
  createdAt: "2026-01-03T10:00:00.000Z",
  online: false,
  ...over
})
