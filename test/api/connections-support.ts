/**
 * What the connections API tests share: a node with a key to seal secrets, whose own chat_a,
 * chat_b and IMAP accounts the loopback servers refuse (so a success proves a being's own token
 * was used), an owner and a member, and the sealed rows read straight from the database.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { startSlack, startTelegram } from "../support/chat-servers.ts"
import { ImapServer } from "../support/imap.ts"
import {
  type Client,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

export const adaBot = "777:ada-own-bot"
export const nodeBot = "111:node-bot"
export const adaSlack = "xoxp-ada-own"
export const nodeSlack = "xoxb-node"

export interface ConnectionsNode {
  telegram: Awaited<ReturnType<typeof startTelegram>>
  slack: Awaited<ReturnType<typeof startSlack>>
  imap: ImapServer
  node: TestNode
  owner: Registered
  member: Registered
}

/** Starts the loopback servers and the node before the file's tests, and stops them after. */
export const connectionsNode = (): ConnectionsNode => {
  const context = {} as ConnectionsNode
  beforeAll(async () => {
    context.telegram = await startTelegram(adaBot)
    context.slack = await startSlack(adaSlack)
    context.imap = await ImapServer.start()
    context.imap.deliver({
      from: "grace@example.org",
      subject: "Only Ada's mailbox has this",
      date: new Date("2026-01-01T00:00:00Z"),
      text: "hi"
    })
    context.node = await startNode((dataDir) => {
      mkdirSync(join(dataDir, "owner-folder", "notes"), { recursive: true })
      return {
        pluginDir: join(dataDir, "plugins"),
        encryptionKey: Option.some(Redacted.make("a long passphrase for the tests")),
        filesRoot: Option.some(join(dataDir, "owner-folder")),
        // The node's own accounts are ones the loopback servers refuse: a success proves the being's own was used.
        imapUrl: Option.some(Redacted.make(`imap://${context.imap.user}:wrong-pass@127.0.0.1:${context.imap.port}`)),
        chatAApiUrl: context.telegram.url,
        chatABotToken: Option.some(Redacted.make(nodeBot)),
        chatBApiUrl: context.slack.url,
        chatBToken: Option.some(Redacted.make(nodeSlack))
      }
    })
    context.owner = await registerOwner(context.node)
    context.member = await registerMember(context.node, context.owner.client)
  })
  afterAll(async () => {
    await context.node?.close()
    await context.telegram.close()
    await context.slack.close()
    await context.imap.stop()
  })
  return context
}

export const rows = (context: ConnectionsNode) =>
  context.node.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.unsafe<{ id: string; beingId: string; provider: string; meta: string; secret: string | null }>(
        `SELECT id, being_id AS "beingId", provider, meta, secret FROM twin_connections ORDER BY id`
      )
    )
  )

export const invoke = (client: Client, name: string, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name, input } }))
