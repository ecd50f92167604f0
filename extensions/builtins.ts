/** Every built-in plugin, in load order. Each is a module exporting its `manifest` and `activate`. */
import type { PluginModule } from "../kernel/extensions/context.ts"
import * as desktop from "./desktop/plugin.ts"
import * as docs from "./docs/plugin.ts"
import * as files from "./files/plugin.ts"
import * as llm from "./llm/plugin.ts"
import * as math from "./math/plugin.ts"
import * as memory from "./memory/plugin.ts"
import * as studio from "./studio/plugin.ts"
import * as themes from "./themes/plugin.ts"
import * as web from "./web/plugin.ts"

export const builtins: ReadonlyArray<PluginModule> = [themes, files, docs, math, web, llm, memory, desktop, studio]
