/**
 * The year's rows, written by the node's own services in its own process (node.ts's seeding
 * node), so every row is what the node writes: memories through the twin's `Memories.store`,
 * projects through the studio's `ProjectStore` (the writes a run makes: the project, its plan's
 * steps, each step's progress, its trace, its end), direct messages through `Threads.post`. Where
 * the full path would spend a model or take minutes, the feature's repository writes what that
 * path would have written, in transactions of a batch: the Muse thread's messages
 * (`MessagesRepository.insert`: the Muse's replies need a model), nine in ten signals (a tenth go
 * through the desktop's `Signals`, the being actor and its gate; one actor message per signal
 * and per dismissal is over a millisecond each) and the federation's peers (`PeersRepository`:
 * adding one by its route dials it). Memories are stored with no embed tier (so unembedded, as
 * on a node without one). Listings are published over HTTP; the peers' messages arrive over HTTP
 * on the wire route (sealed, signed envelopes) and the owner's answers are posted in the
 * conversation's thread (signed and queued by the federation's outbox), then settled as the
 * courier settles a delivery (seed-federation.ts).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { performance } from "node:perf_hooks"
import type { SignalInput } from "../../../actors/being/contract/signal.ts"
import { SignalReads } from "../../../actors/being/contract/signal-reads.ts"
import { SignalsRepository } from "../../../actors/being/signals-repository.ts"
import { ProjectStore, newId } from "../../../actors/project/store.ts"
import { Signals } from "../../../extensions/desktop/contract/signals.ts"
import { Memories } from "../../../extensions/twin/memories.ts"
import { Threads } from "../../../extensions/threads/threads.ts"
import { MessagesRepository as ThreadMessages } from "../../../extensions/threads/repositories/messages-repository.ts"
import { run } from "../../support/client.ts"
import type { Person, SeedingNode } from "./node.ts"
import { TASKS_PER_PROJECT, TRACES_PER_PROJECT, pick, planned, random, sentence } from "./data.ts"
import { seedFederation } from "./seed-federation.ts"
import { firstPage } from "../../support/client.ts"

const BATCH = 500
const memoryKinds = ["fact", "preference", "episode", "insight", "relationship", "document"] as const
const traceKinds = ["plan", "think", "tool.call", "tool.result", "message", "output"] as const

/** The ids the timed routes read: one of each thing a route takes in its path. */
export interface SeededIds {
  readonly ownerId: string
  readonly projectId: string
  readonly museThreadId: string
  readonly directThreadId: string
  readonly conversationThreadId: string
  readonly listingId: string
  readonly groupId: string
}

export interface SeededYear {
  /** Rows written, by what they are. */
  readonly items: Readonly<Record<string, number>>
  /** Seconds each part of the seeding took. */
  readonly seconds: Readonly<Record<string, number>>
  readonly ids: SeededIds
}

const inBatches = <E, R>(count: number, write: (index: number) => Effect.Effect<unknown, E, R>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    for (let start = 0; start < count; start += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => start + i)
      yield* sql.withTransaction(Effect.forEach(batch, write, { discard: true })).pipe(Effect.orDie)
    }
  })

const memories = (ownerId: string) =>
  Effect.flatMap(Memories, (service) =>
    inBatches(planned.memories, (i) =>
      service.store(
        ownerId,
        {
          kind: pick(memoryKinds, i),
          content: sentence(i),
          importance: random(),
          tags: i % 3 === 0 ? [`topic-${i % 50}`] : [],
          source: "bench"
        },
        { skipNearDuplicates: false }
      )
    )
  )

/** A project as a finished run leaves it (a few still running, a few failed): plan, progress, trace, end. */
const projects = (ownerId: string, firstProject: (id: string) => void) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    yield* inBatches(planned.projects, (i) =>
      Effect.gen(function* () {
        const id = newId()
        if (i === 0) firstProject(id)
        const brief = sentence(i, 30)
        yield* store.insertProject({
          id,
          ownerId,
          generatorId: null,
          title: `Project ${i}: ${sentence(i, 4)}`,
          brief,
          inputs: {}
        })
        const steps = yield* store.savePlan(
          id,
          Array.from({ length: TASKS_PER_PROJECT }, (_, step) => ({
            key: `s${step}`,
            title: `Step ${step}`,
            description: sentence(i + step, 12),
            instruction: sentence(i + step, 20),
            role: pick(["writer", "researcher", "editor"], step),
            skills: [],
            tier: "standard" as const,
            dependsOn: step === 0 ? [] : [`s${step - 1}`],
            outputKind: "markdown" as const,
            contract: null,
            template: null
          }))
        )
        // One project in twenty is still running (its last steps open), one in thirty failed.
        const running = i % 20 === 1
        const failed = !running && i % 30 === 2
        const doneSteps = running ? TASKS_PER_PROJECT - 2 : TASKS_PER_PROJECT
        for (const [step, task] of steps.entries()) {
          if (step >= doneSteps) break
          const at = new Date().toISOString()
          yield* store.updateTask(task.id, {
            status: failed && step === doneSteps - 1 ? "failed" : "done",
            outputText: sentence(i + step, 40),
            costUsd: 0.002,
            startedAt: at,
            finishedAt: at
          })
        }
        for (let event = 0; event < TRACES_PER_PROJECT; event++) {
          yield* store.trace(id, {
            taskId: pick(steps, event).id,
            kind: pick(traceKinds, event),
            text: sentence(i + event, 10),
            data: event % 4 === 2 ? { skill: "web.search", args: { q: sentence(i, 3) } } : undefined
          })
        }
        yield* store.setStatus(id, running ? "running" : failed ? "failed" : "done", failed ? "A step failed." : null)
      })
    )
  }).pipe(Effect.provide(ProjectStore.Default))

const signalInput = (i: number): SignalInput => ({
  kind: pick(["insight", "reminder", "alert", "question", "celebration"], i),
  title: `Signal ${i}: ${sentence(i, 5)}`,
  body: sentence(i, 25),
  options: [],
  priority: pick(["low", "normal", "normal", "high", "urgent"], i),
  dueAt: null,
  action: null
})

/**
 * Signals on the owner's desktop, nine in ten of them dismissed since. The first tenth go through
 * the desktop's `Signals` (the being actor, its gate, a dismiss each); the rest, as the being
 * actor writes them (the record and the gate's stamp that a system raise got), by its repository
 * in transactions: one actor message each would take minutes.
 */
const signals = (ownerId: string) =>
  Effect.gen(function* () {
    const desk = yield* Signals
    const reads = yield* SignalReads
    const repository = yield* SignalsRepository
    const served = Math.ceil(planned.signals / 10)
    const raised = yield* Effect.forEach(
      Array.from({ length: served }, (_, i) => i),
      (i) =>
        Effect.gen(function* () {
          const { signal } = yield* desk.raise(ownerId, signalInput(i), "bench", "system")
          if (i % 10 !== 0) yield* desk.dismiss(ownerId, signal.id)
          return signal.id
        }),
      { concurrency: 16 }
    )
    const sample = yield* reads.findGated({ beingId: ownerId, signalId: raised[0]! })
    const gate = Option.getOrThrow(sample).gate!
    yield* inBatches(planned.signals - served, (n) => {
      const i = served + n
      const input = signalInput(i)
      const at = new Date().toISOString()
      const dismissed = i % 10 !== 0
      return repository.insert({
        ...input,
        id: randomBytes(12).toString("base64url"),
        beingId: ownerId,
        source: "bench",
        status: dismissed ? "dismissed" : "open",
        answer: null,
        actionResult: null,
        createdAt: at,
        updatedAt: at,
        answeredAt: null,
        gate: { ...gate, at },
        heldUntil: null
      })
    })
  }).pipe(Effect.orDie, Effect.provide(SignalsRepository.Default))

/** Half the messages in the owner's Muse thread (a user's line and the Muse's answer), half in direct threads. */
const messages = (ownerId: string, museThreadId: string, members: ReadonlyArray<Person>) =>
  Effect.gen(function* () {
    const repository = yield* ThreadMessages
    const threads = yield* Threads
    const museCount = Math.ceil(planned.messages / 2)
    const start = Date.now() - museCount * 60_000
    yield* inBatches(museCount, (i) =>
      repository.insert({
        id: newId(),
        threadId: museThreadId,
        role: i % 2 === 0 ? "user" : "assistant",
        authorId: i % 2 === 0 ? ownerId : null,
        content: sentence(i, i % 2 === 0 ? 12 : 60),
        attachments: [],
        toolCalls: [],
        createdAt: new Date(start + i * 60_000).toISOString()
      })
    )
    const direct: Array<string> = []
    for (const member of members) {
      const thread = yield* threads.open(ownerId, { kind: "direct", withBeingId: member.being.id })
      direct.push(thread.id)
    }
    yield* inBatches(planned.messages - museCount, (i) => {
      const member = pick(members, i)
      const from = Math.floor(i / members.length) % 2 === 0 ? ownerId : member.being.id
      return threads.post(from, pick(direct, i), { content: sentence(i, 15) })
    })
    return direct[0]!
  }).pipe(Effect.orDie, Effect.provide(ThreadMessages.Default))

const timed = async <A>(seconds: Record<string, number>, name: string, work: () => Promise<A>) => {
  const started = performance.now()
  const result = await work()
  seconds[name] = (performance.now() - started) / 1000
  return result
}

export const seedYear = async (
  node: SeedingNode,
  owner: Person,
  members: ReadonlyArray<Person>
): Promise<SeededYear> => {
  const seconds: Record<string, number> = {}
  const ownerId = owner.being.id
  const runtime = node.runtime
  let projectId = ""
  await timed(seconds, "memories", () => runtime.runPromise(memories(ownerId)))
  await timed(seconds, "projects", () => runtime.runPromise(projects(ownerId, (id) => (projectId = id))))
  await timed(seconds, "signals", () => runtime.runPromise(signals(ownerId)))
  const [muse] = await run(owner.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
  const directThreadId = await timed(seconds, "messages", () =>
    runtime.runPromise(messages(ownerId, muse!.id, members))
  )
  const listingIds = await timed(seconds, "listings", () => publishListings(owner, members))
  const federation = await timed(seconds, "federation", () => seedFederation(node, owner))
  const group = await run(owner.client.api.groups.createGroup({ payload: { name: "Household", kind: "household" } }))
  for (const member of members.slice(0, 5)) {
    await run(
      owner.client.api.groups.addMember({
        path: { id: group.id },
        payload: { beingId: member.being.id, role: "member" }
      })
    )
  }
  return {
    items: {
      memories: planned.memories,
      projects: planned.projects,
      "project tasks": planned.projects * TASKS_PER_PROJECT,
      "trace events": planned.projects * TRACES_PER_PROJECT,
      signals: planned.signals,
      "thread messages": planned.messages,
      listings: listingIds.length,
      "federation peers": planned.peers,
      "federation messages": federation.messages
    },
    seconds,
    ids: {
      ownerId,
      projectId,
      museThreadId: muse!.id,
      directThreadId,
      conversationThreadId: federation.threadId,
      listingId: listingIds[0]!,
      groupId: group.id
    }
  }
}

/** Service listings published by the owner and the members, four requests at a time. */
const publishListings = async (owner: Person, members: ReadonlyArray<Person>) => {
  const sellers = [owner, ...members]
  const ids: Array<string> = []
  const publish = async (i: number) => {
    const listing = await run(
      pick(sellers, i).client.api.market.publishListing({
        payload: {
          kind: "service",
          refId: null,
          cover: null,
          title: `Service ${i}: ${sentence(i, 4)}`,
          description: sentence(i, 40),
          brief: sentence(i, 30),
          priceCredits: 1 + (i % 50),
          tags: [`topic-${i % 50}`]
        }
      })
    )
    ids[i] = listing.id
  }
  for (let start = 0; start < planned.listings; start += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, planned.listings - start) }, (_, offset) => publish(start + offset))
    )
  }
  return ids
}
