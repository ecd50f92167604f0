/**
 * Loads places' code on demand: each place is its own chunk of the build, imported the first
 * time the place opens, so the first paint fetches the shell and the open place only. The
 * loader keeps where each import stands and asks its host element to draw again when one
 * settles; a failed import can be tried again.
 */
import type { ReactiveControllerHost } from "lit"

/** A place's module: importing it defines the place's elements. */
export type PlaceModule = () => Promise<unknown>

/** A failed import's reason stays in the browser's console; the person is told it failed and may retry. */
export type PlaceLoad = "loading" | "loaded" | "failed"

export class PlaceLoader {
  private readonly _host: ReactiveControllerHost
  private readonly _loads = new Map<PlaceModule, PlaceLoad>()

  constructor(host: ReactiveControllerHost) {
    this._host = host
  }

  /** Where the module's import stands; asking starts it. */
  load(module: PlaceModule): PlaceLoad {
    const known = this._loads.get(module)
    if (known !== undefined) return known
    this._loads.set(module, "loading")
    module().then(
      () => this._settle(module, "loaded"),
      (error: unknown) => {
        console.error(error)
        this._settle(module, "failed")
      }
    )
    return "loading"
  }

  /** Forgets a failed import so the next `load` tries it again. */
  retry(module: PlaceModule): void {
    if (this._loads.get(module) !== "failed") return
    this._loads.delete(module)
    this._host.requestUpdate()
  }

  private _settle(module: PlaceModule, load: PlaceLoad): void {
    this._loads.set(module, load)
    this._host.requestUpdate()
  }
}
