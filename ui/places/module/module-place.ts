/**
 * `/m/<namespace>.<id>`: a plugin's module. Its document runs in a frame sandboxed to scripts
 * only (no same-origin: an opaque origin with no cookie, storage or network of the app's), served
 * under the node's strict policy for it, and reaches the node only through the bridge
 * (./module-bridge.ts), as the signed-in being, within what the module was granted.
 */
import { css, html, LitElement, type PropertyValues } from "lit"
import { customElement, property, query, state } from "lit/decorators.js"
import type { InstalledPlugin } from "../../../kernel/contract/plugins.ts"
import { request } from "../../api/client.ts"
import { installedPlugins } from "../../api/installed-plugins.ts"
import "../../components/node-alert.ts"
import { LateHeading } from "../../shell/heading-focus.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { ModuleBridgeHost } from "./module-bridge.ts"

interface Found {
  readonly pluginId: string
  readonly extensionId: string
  readonly title: string
}

const findModule = (plugins: ReadonlyArray<InstalledPlugin>, name: string): Found | null => {
  for (const plugin of plugins) {
    const module = plugin.contributions.find(
      (contribution) => contribution.kind === "module" && contribution.name === name
    )
    if (module !== undefined && plugin.status === "active") {
      return { pluginId: plugin.id, extensionId: name.slice(plugin.namespace.length + 1), title: module.title ?? name }
    }
  }
  return null
}

@customElement("module-place")
export class ModulePlace extends LitElement {
  /** The module's full name, `<namespace>.<id>`. */
  @property() accessor name = ""

  @state() private accessor _found: Found | null | undefined = undefined

  @state() private accessor _error = ""

  @query("iframe") private accessor _frame: HTMLIFrameElement | null = null

  private readonly _heading = new LateHeading(this)

  private readonly _bridge = new ModuleBridgeHost(
    () => this._frame,
    (method, args) => {
      const found = this._found
      if (found === null || found === undefined) {
        return Promise.resolve({
          ok: false,
          failure: { status: null, code: "not_found", message: "This module is gone." }
        })
      }
      return request((client) =>
        client.modules.callModule({
          path: { id: encodeURIComponent(found.pluginId), extensionId: found.extensionId },
          payload: { method, args }
        })
      ).then((result) => (result.ok ? { ok: true, value: result.value.result } : result))
    }
  )

  override connectedCallback(): void {
    super.connectedCallback()
    this._bridge.attach()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this._bridge.detach()
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("name")) void this._load()
  }

  private async _load(): Promise<void> {
    this._found = undefined
    this._error = ""
    const name = this.name
    const result = await request(installedPlugins)
    if (name !== this.name) return
    if (result.ok) this._found = findModule(result.value, name)
    else this._error = result.failure.message
  }

  protected override render() {
    if (this._error !== "") return html`<h1>Module</h1><node-alert .message=${this._error}></node-alert>`
    if (this._found === undefined) return html`<p class="muted" role="status">Loading…</p>`
    if (this._found === null) {
      return html`<h1>Not found</h1>
        <p>No installed plugin has a module named ${this.name}.</p>`
    }
    const found = this._found
    const src = `/api/modules/${encodeURIComponent(found.pluginId)}/${encodeURIComponent(found.extensionId)}/document`
    return html`
      <h1>${found.title}</h1>
      <iframe sandbox="allow-scripts" referrerpolicy="no-referrer" title=${found.title} src=${src}></iframe>
    `
  }

  static override styles = [
    sharedStyles,
    css`
      iframe {
        display: block;
        width: 100%;
        min-height: 70vh;
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius, 8px);
        background: white;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "module-place": ModulePlace
  }
}
