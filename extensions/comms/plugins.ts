/** The Comms family's built-in plugins, one per namespace (email, chat_a, chat_b), in load order. */
import type { PluginModule } from "../../kernel/extensions/context.ts"
import { chatA, chatB } from "./chat-plugins.ts"
import * as email from "./email-plugin.ts"

export const commsPlugins: ReadonlyArray<PluginModule> = [email, chatA, chatB]
