/** `npm start`: the node on its embedded defaults (SQLite under data/), until SIGTERM or Ctrl-C. */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"
import { bannerLines, BootInfo, bootInfoLayer } from "./boot.ts"
import { nodeLayer } from "./node.ts"

const banner = Layer.effectDiscard(
  Effect.flatMap(BootInfo, (info) => Effect.forEach(bannerLines(info), (line) => Console.log(line)))
)

const program = Layer.launch(banner.pipe(Layer.provide(bootInfoLayer), Layer.provideMerge(nodeLayer())))

NodeRuntime.runMain(program)
