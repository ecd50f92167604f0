/**
 * The Comms family's mail skills. Sending acts on the world, so each send waits for a human's
 * approval; both reach the mail servers only through the host's `integrations` adapter.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { emailRead } from "./email-read.ts"
import { emailSend } from "./email-send.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/email",
  version: "1.0.0",
  namespace: "email",
  name: "Email",
  description: "Read your recent mail and send mail from this node's mail server.",
  author: "svc",
  capabilities: [
    { kind: "integrations", reason: "reads your mailbox and sends mail through the node's mail server" },
    { kind: "world-acting", reason: "sends email to other people, each message only after you approve it" }
  ],
  extensions: [
    { kind: "skill", id: "read", title: "Read recent email", uses: ["integrations"] },
    { kind: "skill", id: "send", title: "Send an email", uses: ["integrations", "world-acting"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "read", emailRead)
  context.contribute("skill", "send", emailSend)
}
