/** Every built-in plugin, in load order. Each is a module exporting its `manifest` and `activate`. */
import type { PluginModule } from "../../kernel/extensions/context.ts"
import * as code from "../code/plugin.ts"
import * as desktop from "../desktop/plugin.ts"
import * as docs from "../docs/plugin.ts"
import * as files from "../files/plugin.ts"
import * as http from "../http/plugin.ts"
import * as image from "../image/plugin.ts"
import * as llm from "../llm/plugin.ts"
import * as math from "../math/plugin.ts"
import * as memory from "../memory/plugin.ts"
import * as scene3d from "../scene3d/plugin.ts"
import * as schedule from "../schedule/plugin.ts"
import * as studio from "../studio/plugin.ts"
import * as themes from "../themes/plugin.ts"
import * as web from "../web/plugin.ts"
import { commsPlugins } from "../comms/plugins.ts"

export const builtins: ReadonlyArray<PluginModule> = [themes, files, docs, math, code, scene3d, web, http, image, llm, memory, desktop, schedule, studio, ...commsPlugins]
