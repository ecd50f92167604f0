/**
 * The Comms family's mail skills. Sending acts on the world, so each send waits for a human's
 * approval; both reach the mail servers only through the host's `integrations` adapter.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { emailSend } from "./email-send.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/email",
  version: "1.0.0",
  namespace: "email",
  name: "Email",
  description: "Send mail from this node's mail server.",
  author: "svc",
  capabilities: [
    { kind: "integrations", reason: "sends mail through the node's mail server" },
    { kind: "world-acting", reason: "sends email to other people, each message only after you approve it" }
  ],
  extensions: [{ kind: "skill", id: "send", title: "Send an email", uses: ["integrations", "world-acting"] }]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "send", emailSend)
}
