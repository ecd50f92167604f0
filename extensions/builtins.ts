/** Every built-in plugin, in load order. Each is a module exporting its `manifest` and `activate`. */
import type { PluginModule } from "../kernel/extensions/context.ts"
import * as themes from "./themes/plugin.ts"

export const builtins: ReadonlyArray<PluginModule> = [themes]
