/**
 * The Comms family's chat skills, one built-in per service (`chat_a` and `chat_b` stand for two
 * third-party messaging services). Each send acts on the world and waits for a human's approval;
 * the services are reached only through the host's `integrations` adapter.
 */
import type { PluginModule } from "../../kernel/extensions/context.ts"
import type { SkillContribution } from "../../kernel/extensions/skill.ts"
import { chatASend } from "./chat-a-send.ts"
import { chatBSend } from "./chat-b-send.ts"

const chatPlugin = (namespace: "chat_a" | "chat_b", service: string, skill: SkillContribution): PluginModule => ({
  manifest: {
    apiVersion: "1.0",
    id: `@svc/${namespace.replace("_", "-")}`,
    version: "1.0.0",
    namespace,
    name: namespace,
    description: `Send messages on ${namespace} (${service}).`,
    author: "svc",
    capabilities: [
      { kind: "integrations", reason: `sends through your ${namespace} account, or the node's` },
      {
        kind: "world-acting",
        reason: `posts messages other people read on ${namespace}, each only after you approve it`
      }
    ],
    extensions: [{ kind: "skill", id: "send", title: "Send a message", uses: ["integrations", "world-acting"] }]
  },
  activate: (context) => {
    context.contribute("skill", "send", skill)
  }
})

export const chatA = chatPlugin("chat_a", "the Telegram Bot API", chatASend)
export const chatB = chatPlugin("chat_b", "the Slack Web API", chatBSend)
