/** Every built-in plugin, in load order. Each is a module exporting its `manifest` and `activate`. */
import type { PluginModule } from "../kernel/extensions/context.ts"
import * as code from "../extensions/code/plugin.ts"
import * as desktop from "../extensions/desktop/plugin.ts"
import * as docs from "../extensions/docs/plugin.ts"
import * as files from "../extensions/files/plugin.ts"
import * as http from "../extensions/http/plugin.ts"
import * as image from "../extensions/image/plugin.ts"
import * as llm from "../extensions/llm/plugin.ts"
import * as math from "../extensions/math/plugin.ts"
import * as memory from "../extensions/memory/plugin.ts"
import * as scene3d from "../extensions/scene3d/plugin.ts"
import * as schedule from "../extensions/schedule/plugin.ts"
import * as studio from "../extensions/studio/plugin.ts"
import * as themes from "../extensions/themes/plugin.ts"
import * as web from "../extensions/web/plugin.ts"
import { commsPlugins } from "../extensions/comms/plugins.ts"

export const builtins: ReadonlyArray<PluginModule> = [
  themes,
  files,
  docs,
  math,
  code,
  scene3d,
  web,
  http,
  image,
  llm,
  memory,
  desktop,
  schedule,
  studio,
  ...commsPlugins
]
