/** Helpers of the replay and fork tests: a three-step generator, its scripted team, and the model ledger's rows. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll } from "vitest"
import { remoteDefault } from "../support/models.ts"
import {
  type Client,
  registerMember,
  registerOwner,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { scriptStudio } from "./projects-scripted.ts"
import { twoStepGenerator } from "./projects-support.ts"

/** Notes, then a draft from them, then a report from the draft: a line of three steps. */
export const threeStepGenerator = (client: Client) =>
  twoStepGenerator(client, {
    description: "Notes, a draft, a report.",
    steps: [
      {
        id: "notes",
        title: "Notes on {{inputs.topic}}",
        role: "researcher",
        skills: ["files.write"],
        instruction: "Take notes on {{inputs.topic}}."
      },
      {
        id: "draft",
        title: "Draft on {{inputs.topic}}",
        role: "writer",
        skills: ["files.write"],
        instruction: "Draft a piece from these notes:\n{{steps.notes.output}}"
      },
      {
        id: "report",
        title: "Report on {{inputs.topic}}",
        role: "editor",
        skills: ["files.write"],
        instruction: "Make the report from this draft:\n{{steps.draft.output}}"
      }
    ]
  })

/**
 * For the whole test file: the scripted model server, a node using it, its owner and a member (whose projects the
 * tests run). Read the fields inside tests (they are set by then).
 */
export const replayContext = () => {
  const context = {} as { models: OpenAiServer; node: TestNode; owner: Registered; member: Registered }
  beforeAll(async () => {
    context.models = await startOpenAiServer()
    context.node = await startNode(remoteDefault(context.models.baseUrl))
    context.owner = await registerOwner(context.node)
    context.member = await registerMember(context.node, context.owner.client)
  })
  afterAll(async () => {
    await context.node.close()
    await context.models.close()
  })
  return context
}

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")

/**
 * The scripted team, each file saying which version of the work it is: `version()` is read at each write, so a test
 * can tell a step run again from one kept.
 */
export const scriptVersions = (models: OpenAiServer, version: () => number, delayMs?: (title: string) => number) =>
  scriptStudio(models, {
    write: (title) => ({
      path: `${slug(title)}.md`,
      content: `# ${title}\n\n## Summary\n\nVersion ${version()} of ${title}. See https://example.org/source.\n`
    }),
    ...(delayMs === undefined ? {} : { delayMs })
  })

export interface LedgerRow {
  readonly purpose: string
  readonly costUsd: number
  readonly createdAt: string
}

/** The model ledger's rows of one project (`llm_calls`), oldest first. */
export const ledgerOf = (node: TestNode, projectId: string) =>
  node.runtime.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<LedgerRow>`SELECT purpose, cost_usd AS "costUsd", created_at AS "createdAt" FROM llm_calls
      WHERE project_id = ${projectId} ORDER BY created_at, seq`
    ).pipe(Effect.orDie)
  )
