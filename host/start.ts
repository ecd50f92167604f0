/** Starts the node: runs its layer, prints the URL and the owner code, until SIGTERM or Ctrl-C. */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { runNode } from "../kernel/actors/index.ts"
import { bannerLines, BootInfo, bootInfoLayer } from "./boot.ts"
import { nodeLayer } from "./node.ts"

const banner = Layer.effectDiscard(
  Effect.flatMap(BootInfo, (info) => Effect.forEach(bannerLines(info), (line) => Console.log(line)))
)

runNode(banner.pipe(Layer.provide(bootInfoLayer), Layer.provideMerge(nodeLayer())))
